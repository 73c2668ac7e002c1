import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { PGliteDialect } from './pglite-dialect.ts';
import { preparingPool } from './prepared-statements.ts';
import type { Database } from './schema.ts';

export type DatabaseKind = 'embedded' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** The schema the database lives in, when not the default one. */
  schema: string | undefined;
  /** The pg pool behind `db` on PostgreSQL, for libraries that take one. */
  pool: pg.Pool | undefined;
  /** Answers when the database takes a query. */
  ping(): Promise<void>;
  /**
   * Listens to a notification channel (`LISTEN`): `onNotice` gets each payload sent with
   * `pg_notify` after its transaction commits. `onState(false)` says notices may be missed from now
   * on (the listening connection is down; it reconnects by itself), `onState(true)` that they are
   * heard (again). Resolves once the first attempt to listen finished, either way; the function
   * it resolves to stops listening.
   */
  listen(channel: string, handlers: NoticeHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface NoticeHandlers {
  onNotice(payload: string): void;
  onState(listening: boolean): void;
}

/** How long a lost listening connection waits before it connects again, at first and at most. */
export const LISTEN_RETRY_MS = { first: 100, max: 5_000 } as const;

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string. Without it the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** Embedded data directory; omitted means an in-memory database. */
  dataDir?: string | undefined;
  /** Largest pool on PostgreSQL. */
  poolSize?: number | undefined;
  /** First schema on the search path (test databases live in their own schema). */
  schema?: string | undefined;
  /**
   * `application_name` of the PostgreSQL connections (`pg_stat_activity` shows it), unless the URL
   * (`?application_name=`) or `PGAPPNAME` names one.
   */
  applicationName?: string | undefined;
  /** Told when an idle pooled connection dies (a server restart, a failover, a network cut). */
  onConnectionError?: ((error: Error) => void) | undefined;
}

/**
 * How long a statement waits for a pooled connection, a new one included, before it fails with
 * 503 SERVICE_UNAVAILABLE: a server that does not answer must not hold requests forever.
 */
export const CONNECTION_TIMEOUT_MS = 10_000;

// int8 (counts, sums) as numbers on both engines; amounts stay far below 2^53.
const INT8_OID = 20;

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return (await openEmbedded(options.dataDir)).handle;
}

/** The extensions every embedded database loads (the migrations create them). */
export const EMBEDDED_EXTENSIONS = { citext, pg_trgm, btree_gist };

/**
 * PostgreSQL settings of the embedded database. PGlite's own shared_buffers
 * is 160 MB, allocated and zeroed inside its WebAssembly memory at start, so
 * it is resident from the first second (docs/performance.md, "Embedded
 * memory"). A small shop's database fits in far less, and reads beyond the
 * buffers come from the operating system's file cache.
 */
export const EMBEDDED_SETTINGS = ['-c', 'shared_buffers=16MB'];

/**
 * An embedded database and the PGlite instance behind it. `loadDataDir` is a
 * data directory archive (`PGlite.dumpDataDir`) to start a new database from
 * instead of running initdb.
 */
export async function openEmbedded(
  dataDir: string | undefined,
  loadDataDir?: Blob,
): Promise<{ handle: DatabaseHandle; pglite: PGlite }> {
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS],
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: EMBEDDED_EXTENSIONS,
    parsers: { [INT8_OID]: (value: string) => Number(value) },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  const handle: DatabaseHandle = {
    db,
    kind: 'embedded',
    schema: undefined,
    pool: undefined,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    // One process holds the embedded database: its notices are delivered in that process, as the
    // query that committed them returns.
    listen: async (channel, handlers) => {
      if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
      const unlisten = await pglite.listen(channel, handlers.onNotice);
      handlers.onState(true);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    close: () => db.destroy(),
  };
  return { handle, pglite };
}

async function openPostgres(connectionString: string, options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    ...(options.applicationName ? { fallback_application_name: options.applicationName } : {}),
    ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server must not crash the process: the pool drops it and the
  // next checkout opens a new connection. Checked-out clients get their own listener (preparingPool).
  pool.on('error', (error) => options.onConnectionError?.(error));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: preparingPool(pool), cursor: Cursor }),
  });
  return {
    db,
    kind: 'postgres',
    schema: options.schema,
    pool,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    listen: (channel, handlers) =>
      listenOnPostgres(connectionString, channel, handlers, options.applicationName),
    close: () => db.destroy(),
  };
}

/**
 * `LISTEN` on a connection of its own (a pooled one goes back to the pool between statements).
 * When that connection is lost (a server restart, a failover), `onState(false)` is called at once
 * and a new connection is tried after 100 ms, doubling to 5 s, until one listens again.
 */
async function listenOnPostgres(
  connectionString: string,
  channel: string,
  handlers: NoticeHandlers,
  applicationName: string | undefined,
): Promise<() => Promise<void>> {
  if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay: number = LISTEN_RETRY_MS.first;

  const lost = (failed: pg.Client) => {
    if (client !== failed) return;
    client = undefined;
    failed.removeAllListeners('notification');
    void failed.end().catch(() => undefined);
    handlers.onState(false);
    if (stopped) return;
    retry = setTimeout(() => void connect(), delay);
    retry.unref();
    delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
  };

  const connect = async () => {
    const next = new pg.Client({
      connectionString,
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      ...(applicationName ? { fallback_application_name: `${applicationName}-listen` } : {}),
    });
    client = next;
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotice(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
      if (stopped || client !== next) return;
      delay = LISTEN_RETRY_MS.first;
      handlers.onState(true);
    } catch {
      lost(next);
    }
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => undefined);
  };
}

/** SQLSTATE of a database error, on pg and PGlite alike. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlState(error) !== '23505') return false;
  return constraint === undefined || (error as { constraint?: string }).constraint === constraint;
}
