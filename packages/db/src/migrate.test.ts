/**
 * Migrations never stall the shop behind a long query: a migration waits a bounded time for its
 * locks, rolls back and tries again. Needs PostgreSQL (TEST_DATABASE_URL): PGlite has one
 * connection, so nothing else can hold a lock while it migrates.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import type { DatabaseHandle } from './open-database.ts';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('migrating a database in use', () => {
  let handle: DatabaseHandle;
  let schema: string;
  const clients: pg.Client[] = [];

  /** A connection of its own, with the test schema first on its search path. */
  const connect = async () => {
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    await client.connect();
    clients.push(client);
    return client;
  };

  /**
   * Runs `migrate` holding the test databases' schema lock (as `createTestDatabase` does): the
   * migrator reads the tables of every schema, so a migration that creates tables takes the lock
   * shared (other test files' migrations may run beside it) and one that drops tables takes it
   * exclusive, as a schema drop does, so that no other file's migrator reads the catalog meanwhile.
   */
  const underSchemaLock = async <T>(mode: 'shared' | 'exclusive', migrate: () => Promise<T>): Promise<T> => {
    const locker = await connect();
    const suffix = mode === 'shared' ? '_shared' : '';
    await locker.query(`select pg_advisory_lock${suffix}(7201002)`);
    try {
      return await migrate();
    } finally {
      await locker.query(`select pg_advisory_unlock${suffix}(7201002)`);
    }
  };

  /** Migrates back to just before the migration that alters `bookings` for the hold limits. */
  const rollBackToBefore = async (name: string) => {
    const names = Object.keys(migrations).sort();
    const previous = names[names.indexOf(name) - 1]!;
    const migrator = new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => migrations },
      migrationTableSchema: schema,
    });
    const { error } = await underSchemaLock('exclusive', () => migrator.migrateTo(previous));
    if (error) throw error;
  };

  const hasColumn = async (table: string, column: string) => {
    const { rows } = await sql<{ found: boolean }>`select exists (
        select 1 from information_schema.columns
        where table_schema = ${schema} and table_name = ${table} and column_name = ${column}) as found`.execute(
      handle.db,
    );
    return rows[0]!.found;
  };

  beforeAll(async () => {
    handle = await createTestDatabase({ poolSize: 4 });
    schema = handle.schema!;
  });

  afterAll(async () => {
    for (const client of clients) await client.end().catch(() => undefined);
    await handle?.close();
  });

  it('lets other readers of a table through while a long read holds it, then finishes', async () => {
    await rollBackToBefore('2026_11_28_0031_booking_abuse_limits');
    expect(await hasColumn('bookings', 'client_key')).toBe(false);

    // A long report: its open transaction holds a lock that ALTER TABLE bookings must wait for.
    const report = await connect();
    await report.query('begin');
    await report.query('select count(*) from bookings');

    let finished = false;
    const migrating = underSchemaLock('shared', () =>
      migrateToLatest(handle.db, { schema, lockTimeoutMs: 300, retryForMs: 30_000 }),
    ).then(() => {
      finished = true;
    });
    await sleep(100);
    // Without the lock timeout this read would queue behind the migration's waiting request
    // for as long as the report runs.
    const reader = await connect();
    const started = Date.now();
    await reader.query('select count(*) from bookings');
    expect(Date.now() - started).toBeLessThan(2_000);
    await sleep(700);
    expect(finished).toBe(false);

    await report.query('commit');
    await migrating;
    expect(await hasColumn('bookings', 'client_key')).toBe(true);
  });

  it('gives up with the lock timeout once its retries run out', async () => {
    await rollBackToBefore('2026_11_28_0031_booking_abuse_limits');
    const report = await connect();
    await report.query('begin');
    await report.query('select count(*) from bookings');
    try {
      const failure = await underSchemaLock('shared', () =>
        migrateToLatest(handle.db, { schema, lockTimeoutMs: 100, retryForMs: 400 }),
      ).then(
        () => undefined,
        (error: unknown) => error as Error & { cause?: { code?: string } },
      );
      expect(failure?.message).toMatch(/^migration .+ failed$/);
      expect(failure?.cause?.code).toBe('55P03');
      expect(await hasColumn('bookings', 'client_key')).toBe(false);
    } finally {
      await report.query('commit');
    }
    await underSchemaLock('shared', () => migrateToLatest(handle.db, { schema }));
    expect(await hasColumn('bookings', 'client_key')).toBe(true);
  });
});
