import type {
  CompiledQuery,
  PostgresCursor,
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryResult,
} from 'kysely';
import type pg from 'pg';

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

/** A pooled client that sends marked statements as named (prepared) ones. */
class PreparingClient implements PostgresPoolClient {
  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    textOrCursor: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof textOrCursor !== 'string') {
      // pg-cursor, as Kysely streams: a submittable, run as it is.
      return this.client.query(textOrCursor as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
    }
    const values = [...parameters];
    const result = textOrCursor.startsWith(PREPARED_MARKER)
      ? this.client.query({ name: statementName(textOrCursor), text: textOrCursor, values })
      : this.client.query(textOrCursor, values);
    return result as unknown as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    this.client.release();
  }
}

/**
 * The pool as Kysely's PostgreSQL driver takes it, its clients sending marked
 * statements as named ones. Each client is wrapped once, because the driver
 * keeps its connection object per client.
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PreparingClient>();
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        wrapper = new PreparingClient(client);
        wrapped.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
