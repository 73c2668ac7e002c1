import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest } from './migrate.ts';
import { type DatabaseHandle, openDatabase } from './open-database.ts';

/**
 * An isolated, migrated database for one test file: an in-memory PGlite by
 * default, or a fresh schema on the PostgreSQL of TEST_DATABASE_URL. Call
 * `close()` in `afterAll`; on PostgreSQL it drops the schema.
 */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const handle = await openDatabase();
    await migrateToLatest(handle.db);
    return handle;
  }

  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // Extensions are per database: create them once, in public, under a lock that
    // keeps parallel test files from racing; each schema then only references them.
    await admin.query('select pg_advisory_lock(7201001)');
    try {
      for (const extension of ['citext', 'pg_trgm', 'btree_gist']) {
        await admin.query(`create extension if not exists ${extension} schema public`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock(7201001)');
    }
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }

  const handle = await openDatabase({ databaseUrl: url, schema, poolSize: options.poolSize ?? 10 });
  await migrateToLatest(handle.db, { schema });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      try {
        await cleanup.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

export const testDatabaseKind = process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded';
