import { AppError, formatIssuePath, isAppError, MAX_VALIDATION_ISSUES } from '@commerce/core';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@commerce/db';
import { TRPCError } from '@trpc/server';

interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  keys?: readonly string[];
}

/** Unknown keys an `Unrecognized keys` message names at most, each shown up to `KEY_SHOWN` characters. */
const KEYS_LISTED = MAX_VALIDATION_ISSUES;
const KEY_SHOWN = 64;

/**
 * The issue's message, bounded: zod names every unknown key of a body in one message, so 60,000 keys
 * would make one message of most of a megabyte. The first keys are listed, then how many more.
 */
function issueMessage(issue: IssueLike): string {
  if (issue.code !== 'unrecognized_keys' || !Array.isArray(issue.keys)) return issue.message;
  const keys = issue.keys;
  if (keys.length <= KEYS_LISTED && keys.every((key) => key.length <= KEY_SHOWN)) return issue.message;
  const shown = keys
    .slice(0, KEYS_LISTED)
    .map((key) => JSON.stringify(key.length > KEY_SHOWN ? `${key.slice(0, KEY_SHOWN)}…` : key));
  const more = keys.length - shown.length;
  return `Unrecognized key${keys.length === 1 ? '' : 's'}: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

function zodIssues(value: unknown): IssueLike[] | undefined {
  if (!(value instanceof Error) || value.name !== 'ZodError') return undefined;
  const issues = (value as { issues?: unknown }).issues;
  return Array.isArray(issues) ? (issues as IssueLike[]) : undefined;
}

/**
 * Turns anything thrown below the gateway into the contract's error. An
 * unknown fault becomes INTERNAL_ERROR; its detail is for the log only. REST
 * renders it as the envelope; /trpc's error formatter (`trpc.ts`) gives the
 * same code, status and message in its own shape.
 */
export function toAppError(error: unknown): { appError: AppError; unexpected: boolean } {
  if (isAppError(error)) return { appError: error, unexpected: false };
  // A lost or refused connection, a server shutting down, a read-only standby, a full disk: the
  // request may succeed in a moment, so 503 with Retry-After, never 500. A write whose commit
  // outcome is unknown is not retried here; the client's retry with its idempotency key is safe.
  if (isDatabaseUnavailable(error)) return { appError: databaseUnavailable(error), unexpected: false };
  const databaseCode = sqlStateOf(error instanceof TRPCError ? error.cause : error);
  if (databaseCode === 'BK001') {
    return { appError: new AppError('CAPACITY_UNAVAILABLE'), unexpected: false };
  }
  if (databaseCode !== undefined && isConcurrencyAbort(databaseCode)) {
    return {
      appError: new AppError('STALE_STATE', 'A concurrent change conflicted with this request; retry it'),
      unexpected: false,
    };
  }
  if (error instanceof TRPCError) {
    if (isAppError(error.cause)) return { appError: error.cause, unexpected: false };
    const issues = zodIssues(error.cause);
    if (error.code === 'BAD_REQUEST' && issues) {
      return {
        appError: AppError.validation(
          issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issueMessage(issue) })),
        ),
        unexpected: false,
      };
    }
    const mapped = TRPC_CODES[error.code];
    // Without a cause the error is tRPC's own word on the request (an unknown procedure, a batch too large).
    if (mapped)
      return {
        appError: new AppError(mapped, error.cause === undefined ? error.message : undefined),
        unexpected: false,
      };
  }
  return { appError: new AppError('INTERNAL_ERROR'), unexpected: true };
}

/** The answer to a request that met an unavailable database. */
export function databaseUnavailable(cause?: unknown): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    'The database is unavailable for a moment; retry the request',
    { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
    { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS, cause },
  );
}

function sqlStateOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * PostgreSQL aborted the transaction to resolve a deadlock (40P01) or a
 * serialization conflict (40001), or the booking capacity trigger refused a
 * claim outside READ COMMITTED (BK002): nothing
 * was written, and the same request may succeed when retried, which is what
 * STALE_STATE tells the client. BK001 is the capacity trigger's refusal.
 */
function isConcurrencyAbort(code: string): boolean {
  return code === '40P01' || code === '40001' || code === 'BK002';
}

const TRPC_CODES: Partial<Record<TRPCError['code'], AppError['code']>> = {
  PARSE_ERROR: 'VALIDATION_FAILED',
  BAD_REQUEST: 'VALIDATION_FAILED',
  UNAUTHORIZED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'RESOURCE_NOT_FOUND',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  TOO_MANY_REQUESTS: 'RATE_LIMIT_EXCEEDED',
  UNSUPPORTED_MEDIA_TYPE: 'VALIDATION_FAILED',
  METHOD_NOT_SUPPORTED: 'RESOURCE_NOT_FOUND',
};
