import type {
  CompiledQuery,
  PostgresCursor,
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryResult,
} from 'kysely';
import type pg from 'pg';
import { fromDatabaseClient, isConnectionLost } from './connection-errors.ts';

/**
 * Leads the text of a statement that PostgreSQL should prepare once per
 * connection and then only bind and run: the few statements every storefront
 * request sends (the tenant lookup, the item read, the item page), for which
 * planning is most of PostgreSQL's work (the item read: 0.25 ms of planning
 * to 0.09 ms of execution).
 *
 * Opt-in, because a named statement lives as long as its connection: naming
 * every statement would keep one per distinct text, and Kysely makes a new
 * text for each `in (…)` length. Only statements whose text comes from a fixed
 * set of shapes may carry the marker. PGlite runs the text as it is (the
 * marker is an SQL comment).
 */
export const PREPARED_MARKER = '/* prepared */ ';

/** `query` marked to be prepared once per connection on PostgreSQL (see `PREPARED_MARKER`). */
export function prepared<Row>(query: CompiledQuery<Row>): CompiledQuery<Row> {
  return query.sql.startsWith(PREPARED_MARKER) ? query : { ...query, sql: PREPARED_MARKER + query.sql };
}

/**
 * A compiled statement run with other parameters. An object literal of one shape: a spread
 * (`{ ...query, parameters }`) gets a new hidden class from V8 on every call, which turns every
 * read of it on the way to the driver into a megamorphic lookup.
 */
export function withParameters<Row>(
  query: CompiledQuery<Row>,
  parameters: readonly unknown[],
): CompiledQuery<Row> {
  return { query: query.query, queryId: query.queryId, sql: query.sql, parameters };
}

const statementNames = new Map<string, string>();

/** One name per marked text, the same on every connection of the process. */
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `commerce_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Statements that only read and may run again on another connection when the
 * first one was lost before they answered: a plain `select` outside a
 * transaction, without locks or sequences.
 */
const RETRYABLE_READ = /^(\/\* prepared \*\/ )?select\b/i;
const NOT_RETRYABLE =
  /\b(nextval|setval|pg_advisory\w*|for\s+(update|share|no\s+key\s+update|key\s+share))\b/i;

/**
 * A pooled client that sends marked statements as named (prepared) ones, and
 * that keeps the death of its connection from reaching the process.
 *
 * node-postgres emits `error` on a client whose connection dies (a server
 * restart, `pg_terminate_backend`, a network cut). The pool listens only while
 * the client is idle in it; a client checked out between two statements has
 * no listener, and an `error` event without one ends the process. So every
 * client gets a listener of its own for as long as it lives (`preparingPool`), and
 * a client whose connection failed is released with the error, which makes
 * the pool discard it instead of handing it out again.
 */
class PreparingClient implements PostgresPoolClient {
  /** Between BEGIN and COMMIT or ROLLBACK: no statement is retried there. */
  private inTransaction = false;
  /** The client went back to the pool for a retry that found no new connection. */
  private released = false;

  constructor(
    private client: pg.PoolClient,
    private readonly checkOut: () => Promise<pg.PoolClient>,
    private readonly failures: WeakMap<pg.PoolClient, Error>,
  ) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    textOrCursor: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof textOrCursor !== 'string') {
      // pg-cursor, as Kysely streams: a submittable, run as it is; what its reads throw is the client's.
      const cursor = this.client.query(
        textOrCursor as unknown as pg.Submittable,
      ) as unknown as PostgresCursor<R>;
      const read = cursor.read.bind(cursor);
      cursor.read = (rowCount) => read(rowCount).catch(rethrowFromDatabaseClient);
      return cursor;
    }
    const values = [...parameters];
    const wasInTransaction = this.inTransaction;
    this.trackTransaction(textOrCursor);
    const result = send(this.client, textOrCursor, values).catch(async (error: unknown) => {
      if (!isConnectionLost(fromDatabaseClient(error))) throw error;
      const dead = this.client;
      if (!this.failures.has(dead))
        this.failures.set(dead, error instanceof Error ? error : new Error('connection lost'));
      // An idempotent read outside a transaction runs once more on a fresh connection; a write
      // never does, since whether it committed is unknown (the client's idempotency key decides).
      if (wasInTransaction || !RETRYABLE_READ.test(textOrCursor) || NOT_RETRYABLE.test(textOrCursor))
        throw error;
      // The dead client goes back first, so that a full pool has a place for the new one.
      dead.release(this.failures.get(dead));
      this.released = true;
      this.client = await this.checkOut();
      this.released = false;
      return send(this.client, textOrCursor, values).catch(rethrowFromDatabaseClient);
    });
    return result as unknown as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    this.inTransaction = false;
    if (this.released) {
      this.released = false;
      return;
    }
    // With an error the pool closes the client and opens a new one on the next checkout.
    this.client.release(this.failures.get(this.client));
  }

  private trackTransaction(text: string): void {
    const head = text.slice(0, 20).trimStart().toLowerCase();
    if (head.startsWith('begin') || head.startsWith('start transaction')) this.inTransaction = true;
    else if (
      head.startsWith('commit') ||
      head.startsWith('end') ||
      (head.startsWith('rollback') && !head.startsWith('rollback to'))
    )
      this.inTransaction = false;
  }
}

function rethrowFromDatabaseClient(error: unknown): never {
  throw fromDatabaseClient(error);
}

/**
 * Sends the statement: a marked one as a named (prepared) statement, any other as text and
 * values (node-postgres copies a config object's every property on each call; a text it does not).
 */
function send(client: pg.PoolClient, text: string, values: unknown[]): Promise<pg.QueryResult> {
  return text.startsWith(PREPARED_MARKER)
    ? client.query({ name: statementName(text), text, values })
    : client.query(text, values);
}

/**
 * The pool as Kysely's PostgreSQL driver takes it, its clients sending marked
 * statements as named ones. Each client is wrapped once, because the driver
 * keeps its connection object per client.
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PreparingClient>();
  /** The connection failure of each client that had one; such a client is never reused. */
  const failures = new WeakMap<pg.PoolClient, Error>();
  // From its birth to its end every client has a listener. A listener added after the checkout
  // would come too late: the pool hands a released client to the next waiter at once, and the
  // same chunk from the server can carry the end of one statement and the connection's death,
  // both read before the waiter's code runs.
  pool.on('connect', (client) => {
    client.on('error', (error: Error) => {
      if (!failures.has(client)) failures.set(client, error);
    });
  });
  // A refused connection or the pool's connect timeout is the database's failure.
  const checkOut = () => pool.connect().catch(rethrowFromDatabaseClient);
  return {
    connect: async () => {
      const client = await checkOut();
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        wrapper = new PreparingClient(client, checkOut, failures);
        wrapped.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
