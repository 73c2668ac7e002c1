import { AppError } from '@commerce/core';
import { type Database, sqlState } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { BookingClockContext } from '../context.ts';

/** A resource row as the capacity lock holds it. */
export interface LockedResource {
  id: string;
  capacity: number;
  status: 'ACTIVE' | 'ARCHIVED';
}

/** Deadlocks and serialization failures retried before the request gets STALE_STATE. */
export const CAPACITY_RETRIES = 3;

/**
 * Makes `at` the instant that decides which claims are live for the rest of
 * the transaction (`bookings.now`, read by the capacity trigger).
 * With `checkAtCommit`, the transaction's new claims are checked at its COMMIT
 * (`bookings.capacity_check`, migration 0020), the resource lock taken there:
 * a refusal (BK001) is then the commit's error, not the insert's.
 */
export async function setClaimClock(
  trx: Kysely<Database>,
  at: Date,
  options: { checkAtCommit?: boolean } = {},
): Promise<void> {
  await (options.checkAtCommit
    ? sql`select set_config('bookings.now', ${at.toISOString()}, true), set_config('bookings.capacity_check', 'commit', true)`
    : sql`select set_config('bookings.now', ${at.toISOString()}, true)`
  ).execute(trx);
}

/**
 * Locks the candidate resources in one `SELECT … ORDER BY id FOR NO KEY
 * UPDATE`: every claiming transaction takes its locks in the same order, so two
 * of them never wait on each other in a cycle. NO KEY UPDATE, the strength of
 * the capacity trigger's own lock: it excludes every other claimer and capacity
 * change, but not the key-share locks a claim's foreign key leaves on the
 * resource until its transaction ends (a hold checked at commit holds one while
 * it waits for the lock). Answers the rows found, in id order; ids of no
 * resource of the organization are absent. With `clock`, the same statement
 * sets the claim clock first (`setClaimClock`): one round trip for both.
 */
export async function lockResources(
  trx: Kysely<Database>,
  organizationId: string,
  resourceIds: readonly string[],
  options: { clock?: Date } = {},
): Promise<LockedResource[]> {
  const ids = [...new Set(resourceIds)];
  if (options.clock === undefined) {
    if (ids.length === 0) return [];
    return trx
      .selectFrom('booking_resources')
      .select(['id', 'capacity', 'status'])
      .where('organization_id', '=', organizationId)
      .where('id', 'in', ids)
      .orderBy('id')
      .forNoKeyUpdate()
      .execute();
  }
  // The clock's one-row subquery comes first and always yields its row, resources or none.
  const { rows } = await sql<{ id: string | null; capacity: number; status: 'ACTIVE' | 'ARCHIVED' }>`
    select r.id, r.capacity, r.status
    from (select set_config('bookings.now', ${options.clock.toISOString()}, true) as clock) c
    left join lateral (
      select id, capacity, status from booking_resources
      where organization_id = ${organizationId} and id = any(${ids}::text[])
      order by id
      for no key update
    ) r on true
    order by r.id
  `.execute(trx);
  return rows.filter((row): row is LockedResource => row.id !== null);
}

/** PostgreSQL gave up a transaction to break a deadlock or a serialization conflict. */
export function isRetryableAbort(error: unknown): boolean {
  const code = sqlState(error);
  return code === '40P01' || code === '40001';
}

/**
 * Runs `work` in a READ COMMITTED transaction with the claim clock set and
 * `resourceIds` locked first. When it opens the transaction itself, a deadlock
 * or serialization failure reruns the whole transaction up to 3 times, then
 * answers `409 STALE_STATE`. Handed a transaction, it runs inside it once: the
 * owner of the transaction decides about retries.
 */
export async function withCapacityLock<T>(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  resourceIds: readonly string[],
  work: (trx: Kysely<Database>, resources: LockedResource[]) => Promise<T>,
): Promise<T> {
  const attempt = async (trx: Kysely<Database>) =>
    work(trx, await lockResources(trx, ctx.organizationId, resourceIds, { clock: ctx.at }));
  if (db.isTransaction) return attempt(db);
  return retryOnAbort(() => db.transaction().setIsolationLevel('read committed').execute(attempt));
}

/** Reruns `run` after a deadlock or serialization failure, at most `CAPACITY_RETRIES` times. */
export async function retryOnAbort<T>(run: () => Promise<T>): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await run();
    } catch (error) {
      if (!isRetryableAbort(error)) throw error;
      if (retry === CAPACITY_RETRIES) {
        throw new AppError(
          'STALE_STATE',
          'A concurrent change conflicted with this request; retry it',
          undefined,
          {
            cause: error,
          },
        );
      }
    }
  }
}
