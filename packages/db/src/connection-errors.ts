/**
 * Failures that say the database could not be reached or could not take the
 * statement right now, rather than that the statement was wrong: the
 * connection was lost or refused, the server is shutting down or restarting,
 * it is a read-only standby after a failover, or its disk is full or
 * read-only. The service answers them with 503 SERVICE_UNAVAILABLE and a
 * `Retry-After`; the same request may succeed a few seconds later.
 */

/** Seconds a client is told to wait when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

// SQLSTATEs (PostgreSQL's "Appendix A"), on pg and PGlite alike.
const UNAVAILABLE_SQL_STATES = new Set([
  '57P01', // admin_shutdown: terminated by an administrator (pg_terminate_backend, a fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '57P05', // idle_session_timeout
  '25006', // read_only_sql_transaction: a write reached a standby (failover)
  '53100', // disk_full
  '53300', // too_many_connections
  '58030', // io_error
  '40003', // statement_completion_unknown
]);

// Node's socket and file-system error codes that mean the same, when the database client raised
// them: a provider's client (fetch, the payment processor's SDK, SMTP) raises the same codes.
const UNAVAILABLE_ERRNO_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOSPC',
  'EROFS',
  'EDQUOT',
  'EIO',
]);

// node-postgres and pg-pool say these with a plain Error and no code (also only from the client).
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection closed',
];

/** Errors the database client (pg, pg-pool, pg-cursor, PGlite) threw, marked where it is called. */
const databaseClientErrors = new WeakSet<object>();

/**
 * Marks `error` as thrown by the database client, and answers it. The
 * database layer calls it where it calls the client (`preparingPool`, the
 * PGlite dialect), so that a socket errno or a node-postgres message counts
 * as the database's only when the database's client raised it.
 */
export function fromDatabaseClient<E>(error: E): E {
  if (error !== null && typeof error === 'object') databaseClientErrors.add(error);
  return error;
}

/**
 * True when `error` (or an error it wraps as its `cause`) says the database
 * is unavailable rather than that the statement failed: an unavailable
 * SQLSTATE wherever it comes from (only the database has them), a socket or
 * file-system errno or a node-postgres message only from an error the
 * database client threw (`fromDatabaseClient`) or one it wraps. The same
 * errno from a provider (`fetch failed` caused by `ECONNREFUSED`, an SDK's
 * `ETIMEDOUT`) is that provider's failure, not the database's.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  let fromClient = false;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    fromClient ||= databaseClientErrors.has(current);
    const { code, message, errno } = current as { code?: unknown; message?: unknown; errno?: unknown };
    if (typeof code === 'string' && code.length === 5) {
      // Class 08: connection exception (connection failure, refused, lost).
      if (code.startsWith('08') || UNAVAILABLE_SQL_STATES.has(code)) return true;
    }
    if (fromClient) {
      if (typeof code === 'string' && UNAVAILABLE_ERRNO_CODES.has(code)) return true;
      if (typeof errno === 'string' && UNAVAILABLE_ERRNO_CODES.has(errno)) return true;
      if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.startsWith(text)))
        return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** True when `error` means the connection it came from is gone and must not be used again. */
export function isConnectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '53100' || code === '25006' || code === '58030' || code === '53300') return false;
  return isDatabaseUnavailable(error);
}
