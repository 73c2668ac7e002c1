import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { fromDatabaseClient } from './connection-errors.ts';

/**
 * Kysely over PGlite. PGlite is a single connection, so the driver hands it
 * out to one holder at a time: a transaction keeps it from BEGIN to COMMIT and
 * everything else queues behind it, which is what makes concurrent
 * transactions on the embedded database serialize instead of interleave.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private tail: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.release = release;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint "${name}"`));
  }

  async destroy(): Promise<void> {
    await this.tail;
    // A stopped engine never answers again, its close() included; the process exit ends it.
    if (!this.pglite.closed && !this.connection.stopped) await this.pglite.close();
  }
}

let cursorSequence = 0;

/**
 * The error every statement gets once the embedded engine stopped: SQLSTATE
 * 57P02 (crash shutdown), which the service answers with 503.
 */
export class EmbeddedDatabaseStoppedError extends Error {
  readonly code = '57P02';
  constructor(cause: unknown) {
    super('The embedded database stopped after a failed write to its data directory; restart the process', {
      cause,
    });
    this.name = 'EmbeddedDatabaseStoppedError';
  }
}

class PGliteConnection implements DatabaseConnection {
  /**
   * The PANIC that stopped the engine, if one did. PostgreSQL panics when it
   * cannot write its log (a full or read-only disk); a server would restart
   * and recover from the log, but the embedded engine never answers again, so
   * every later statement fails at once instead of waiting forever. What is
   * on disk is what a crash leaves, which the next start recovers from.
   */
  private panic: unknown;

  constructor(private readonly pglite: PGlite) {}

  get stopped(): boolean {
    return this.panic !== undefined;
  }

  private async query<R>(text: string, parameters: unknown[] = [], options?: { rowMode: 'object' }) {
    if (this.panic !== undefined) throw fromDatabaseClient(new EmbeddedDatabaseStoppedError(this.panic));
    try {
      return await this.pglite.query<R>(text, parameters, options);
    } catch (error) {
      if ((error as { severity?: unknown } | null)?.severity === 'PANIC') this.panic = error;
      throw fromDatabaseClient(error);
    }
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.query<R>(compiledQuery.sql, [...compiledQuery.parameters], {
      rowMode: 'object',
    });
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && affected > 0 ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  /**
   * Streams through a server-side cursor, so rows cross into JavaScript a
   * chunk at a time. The cursor lives in a transaction: the caller's, or a
   * read-only one of its own when the caller has none. (A WITH HOLD cursor
   * would not need one, but it materialises the whole result when it is
   * declared, and PGlite's memory is this process's.)
   */
  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize = 500,
  ): AsyncIterableIterator<QueryResult<R>> {
    cursorSequence += 1;
    const cursor = `kysely_stream_${cursorSequence}`;
    const declare = () =>
      this.query(`declare ${cursor} no scroll cursor for ${compiledQuery.sql}`, [
        ...compiledQuery.parameters,
      ]);
    let ownTransaction = false;
    try {
      await declare();
    } catch (error) {
      // 25P01: no transaction is open, so the cursor gets one of its own.
      if ((error as { code?: unknown }).code !== '25P01') throw error;
      await this.query('begin read only');
      ownTransaction = true;
      try {
        await declare();
      } catch (declareError) {
        await this.query('rollback');
        throw declareError;
      }
    }
    let completed = false;
    try {
      while (true) {
        const chunk = await this.query<R>(`fetch ${chunkSize} from ${cursor}`, [], {
          rowMode: 'object',
        });
        if (chunk.rows.length > 0) yield { rows: chunk.rows };
        if (chunk.rows.length < chunkSize) break;
      }
      completed = true;
    } finally {
      if (ownTransaction) await this.query(completed ? 'commit' : 'rollback');
      else await this.query(`close ${cursor}`);
    }
  }
}
