import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, Migrator, sql } from 'kysely';
import { migrations } from './migrations/index.ts';

export interface MigrateOptions {
  /**
   * Where the bookkeeping tables live when the database is not in the default schema (test
   * databases), so that another schema's bookkeeping is never mistaken for this one's.
   */
  schema?: string | undefined;
  /** How long a migration may wait for a lock before its attempt is rolled back (5 s). */
  lockTimeoutMs?: number;
  /** How long attempts that met a lock timeout are retried before the error is thrown (2 minutes). */
  retryForMs?: number;
}

/** PostgreSQL's `lock_not_available`: a statement waited `lock_timeout` for a lock. */
const LOCK_NOT_AVAILABLE = '55P03';

function isLockTimeout(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return true;
  }
  return false;
}

/**
 * Applies every pending migration in one transaction; throws with the failing migration's name.
 *
 * A migration that alters a table needs its ACCESS EXCLUSIVE lock, and PostgreSQL queues every
 * later query of that table behind the waiting request: one long report reading `bookings` would
 * stall the whole shop until it ends. So the migrations' connection waits at most
 * `lockTimeoutMs` for any lock; then the attempt rolls back (releasing what it held, so traffic
 * flows again) and is retried after a pause, for up to `retryForMs`. A second process starting
 * at the same time waits for the first's migrations to end (the migrator's own advisory lock,
 * taken before the transaction with a timeout of an hour), then finds nothing pending.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, options: MigrateOptions = {}): Promise<void> {
  const lockTimeoutMs = options.lockTimeoutMs ?? 5_000;
  const deadline = Date.now() + (options.retryForMs ?? 120_000);
  for (let attempt = 1; ; attempt++) {
    try {
      await migrateOnce(db as unknown as Kysely<unknown>, options.schema, lockTimeoutMs);
      return;
    } catch (error) {
      if (!isLockTimeout(error) || Date.now() >= deadline) throw error;
      await sleep(Math.min(5_000, 250 * 2 ** Math.min(attempt, 5)));
    }
  }
}

async function migrateOnce(db: Kysely<unknown>, schema: string | undefined, lockTimeoutMs: number) {
  await db.connection().execute(async (connection) => {
    await sql`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, false)`.execute(connection);
    try {
      const migrator = new Migrator({
        db: connection,
        provider: { getMigrations: async () => migrations },
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      const { error, results } = await migrator.migrateToLatest();
      if (error) {
        const failed = results?.find((result) => result.status === 'Error');
        throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
      }
    } finally {
      // The connection goes back to the pool: its later users wait for locks as long as they need.
      // A reset that fails (the connection died) must not hide the error that ended the attempt.
      await sql`reset lock_timeout`.execute(connection).catch(() => undefined);
    }
  });
}
