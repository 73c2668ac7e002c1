import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openEmbeddedAtLatest } from '../src/embedded-snapshot.ts';
import { migrateToLatest } from '../src/migrate.ts';
import { type DatabaseHandle, openDatabase } from '../src/open-database.ts';

/**
 * An isolated, migrated database for one test file: an in-memory PGlite by
 * default, or a fresh schema on the PostgreSQL of TEST_DATABASE_URL. Call
 * `close()` in `afterAll`; on PostgreSQL it drops the schema.
 */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openEmbeddedAtLatest(undefined);

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
  // Kysely's migrator introspects the tables of every schema; a schema dropped by another
  // test file during that query makes it fail. Migrations hold a shared lock, drops an
  // exclusive one, so neither sees the other half done.
  await withSchemaLock(url, 'shared', () => migrateToLatest(handle.db, { schema }));
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await dropTestSchema(url, schema);
    },
  };
}

/**
 * Drops a test schema under the exclusive schema lock. Every test that makes a schema of its
 * own drops it this way: a plain drop can land in the middle of another file's migration, whose
 * catalog read then fails with "schema does not exist".
 */
export async function dropTestSchema(url: string, schema: string): Promise<void> {
  await withSchemaLock(url, 'exclusive', async (client) => {
    await client.query(`drop schema if exists ${schema} cascade`);
  });
}

const SCHEMA_LOCK = 7201002;

async function withSchemaLock<T>(
  url: string,
  mode: 'shared' | 'exclusive',
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const suffix = mode === 'shared' ? '_shared' : '';
  try {
    await client.query(`select pg_advisory_lock${suffix}(${SCHEMA_LOCK})`);
    try {
      return await run(client);
    } finally {
      await client.query(`select pg_advisory_unlock${suffix}(${SCHEMA_LOCK})`);
    }
  } finally {
    await client.end();
  }
}

export const testDatabaseKind = process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded';
