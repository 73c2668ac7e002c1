import { runPeriodically } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import { type Kysely, sql } from 'kysely';
import { setClaimClock } from '../capacity/capacity-lock.ts';
import {
  bookingSessions,
  closeBookingPaymentLinks,
  lockBookingPaymentSessions,
  OPEN_SESSION_STATUSES,
} from './booking-payments.ts';
import { expireBooking } from './transitions/expire-booking.ts';

/**
 * The bookings worker's jobs (docs/bookings.md "Worker"). Each takes at most
 * `batchSize` (500) rows a batch, locked with `FOR UPDATE SKIP LOCKED` so
 * several workers share the work, and is idempotent: a row another run already
 * moved no longer matches. Bookings move one per transaction, so one that
 * fails (and is logged) never holds back the others.
 */

export const BOOKINGS_BATCH_SIZE = 500;
const DAY_MS = 86_400_000;
/** Tokens kept this long after they expire or are consumed. */
export const MANAGEMENT_TOKEN_RETENTION_DAYS = 30;

export interface SweepOptions {
  at: Date;
  batchSize?: number;
}

/** `ACTIVE` holds past `expiresAt` → `EXPIRED`, their claims released (they had stopped counting already). */
export async function expireBookingHolds(db: Kysely<Database>, options: SweepOptions): Promise<number> {
  const batchSize = options.batchSize ?? BOOKINGS_BATCH_SIZE;
  return db
    .transaction()
    .setIsolationLevel('read committed')
    .execute(async (trx) => {
      await setClaimClock(trx, options.at);
      const result = await sql<{ organization_id: string; id: string }>`
        with due as (
          select organization_id, id from booking_holds
          where status = 'ACTIVE' and expires_at <= ${options.at.toISOString()}::timestamptz
          order by expires_at
          limit ${batchSize}
          for update skip locked
        ),
        expired as (
          update booking_holds h set status = 'EXPIRED', updated_at = ${options.at.toISOString()}::timestamptz
          from due where h.organization_id = due.organization_id and h.id = due.id
          returning h.organization_id, h.id
        ),
        released as (
          update booking_capacity_claims c set released_at = ${options.at.toISOString()}::timestamptz
          from expired where c.organization_id = expired.organization_id and c.hold_id = expired.id
            and c.released_at is null
          returning c.id
        )
        select organization_id, id from expired
      `.execute(trx);
      return result.rows.length;
    });
}

export interface BookingSweepOptions extends SweepOptions {
  email: CustomerEmailConfig;
  logger?: SweepLogger;
}

export interface SweepLogger {
  info(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * Expires the bookings `due` selects (ids only, oldest first): each in its
 * own transaction that locks the row with `SKIP LOCKED` (a row busy
 * elsewhere waits for the next run) and lets `expireBooking` decide again
 * under the lock. After-commit work (the provider's intent cancellation) runs
 * after each commit; its failure is logged, the payment module owes it.
 */
async function expireDue(
  db: Kysely<Database>,
  options: BookingSweepOptions,
  due: { organization_id: string; id: string }[],
): Promise<number> {
  let expired = 0;
  for (const row of due) {
    const ctx = { organizationId: row.organization_id, at: options.at, email: options.email };
    try {
      const outcome = await db
        .transaction()
        .setIsolationLevel('read committed')
        .execute(async (trx) => {
          // Sessions before the booking, as the webhook takes them; one busy with a payment waits.
          if (!(await lockBookingPaymentSessions(trx, row.organization_id, row.id, { skipLocked: true })))
            return null;
          const locked = await trx
            .selectFrom('bookings')
            .select('id')
            .where('organization_id', '=', row.organization_id)
            .where('id', '=', row.id)
            .forUpdate()
            .skipLocked()
            .executeTakeFirst();
          if (!locked) return null;
          await setClaimClock(trx, options.at);
          return expireBooking(trx, ctx, row.id);
        });
      if (outcome) {
        expired += 1;
        await outcome.afterCommit().catch((error: unknown) => {
          options.logger?.error({ err: error, bookingId: row.id }, 'booking expiry after-commit work failed');
        });
      }
    } catch (error) {
      options.logger?.error({ err: error, bookingId: row.id }, 'booking expiry failed');
    }
  }
  return expired;
}

/** Bookings of `status` whose `deadline` has passed, the earliest first, one batch. */
async function dueBookings(
  db: Kysely<Database>,
  options: BookingSweepOptions,
  status: 'PENDING_PAYMENT' | 'REQUESTED',
  deadline: 'payment_expires_at' | 'request_expires_at',
) {
  return db
    .selectFrom('bookings')
    .select(['organization_id', 'id'])
    .where('status', '=', status)
    .where(deadline, '<=', options.at)
    .orderBy(deadline)
    .limit(options.batchSize ?? BOOKINGS_BATCH_SIZE)
    .execute();
}

/** `PENDING_PAYMENT` bookings past `paymentExpiresAt` → `EXPIRED` (claim released, payment closed, emailed). */
export async function expireBookingPaymentWindows(
  db: Kysely<Database>,
  options: BookingSweepOptions,
): Promise<number> {
  return expireDue(db, options, await dueBookings(db, options, 'PENDING_PAYMENT', 'payment_expires_at'));
}

/**
 * The bookings whose balance links are past their expiry, for the link-expiry
 * job. Its session predicate is the partial index
 * `checkout_sessions_booking_expiry_idx`'s exactly (a Sales record, an open
 * status, by `expires_at`), so the job never scans every checkout session.
 */
export function dueBookingPaymentLinks(db: Kysely<Database>, options: BookingSweepOptions) {
  return db
    .selectFrom('checkout_sessions as s')
    .innerJoin('bookings as b', (join) =>
      join
        .onRef('b.organization_id', '=', 's.organization_id')
        .onRef('b.sales_record_id', '=', 's.sales_record_id'),
    )
    .select(['b.organization_id', 'b.id'])
    .distinct()
    .where('b.status', '=', 'CONFIRMED')
    .where('s.sales_record_id', 'is not', null)
    .where('s.status', 'in', [...OPEN_SESSION_STATUSES])
    .where('s.expires_at', '<=', options.at)
    .limit(options.batchSize ?? BOOKINGS_BATCH_SIZE);
}

/**
 * Balance links past their expiry (the open checkout sessions of CONFIRMED
 * bookings whose `expires_at` passed; the orders' session sweep leaves booking
 * sessions alone): each closed as a new link or a cancellation closes it, in
 * its own transaction taking the booking's sessions before the booking (one
 * busy with a payment waits for the next run): the session CANCELLED and the
 * intent of every unpaid attempt of the booking, a failed one's included,
 * owed its cancellation, which the worker's checkout sweep makes. Answers
 * how many bookings had links closed.
 */
export async function expireBookingPaymentLinks(
  db: Kysely<Database>,
  options: BookingSweepOptions,
): Promise<number> {
  const due = await dueBookingPaymentLinks(db, options).execute();
  let closed = 0;
  for (const row of due) {
    const ctx = { organizationId: row.organization_id, at: options.at };
    try {
      const isClosed = await db
        .transaction()
        .setIsolationLevel('read committed')
        .execute(async (trx) => {
          if (!(await lockBookingPaymentSessions(trx, row.organization_id, row.id, { skipLocked: true })))
            return false;
          const booking = await trx
            .selectFrom('bookings')
            .select('status')
            .where('organization_id', '=', row.organization_id)
            .where('id', '=', row.id)
            .forUpdate()
            .skipLocked()
            .executeTakeFirst();
          if (booking?.status !== 'CONFIRMED') return false;
          // Decided again under the locks: a link sent or paid meanwhile is no longer due.
          const expired = await bookingSessions(trx, row.organization_id, row.id)
            .where('s.status', 'in', [...OPEN_SESSION_STATUSES])
            .where('s.expires_at', '<=', options.at)
            .executeTakeFirst();
          if (!expired) return false;
          await closeBookingPaymentLinks(trx, ctx, row.id);
          return true;
        });
      if (isClosed) closed += 1;
    } catch (error) {
      options.logger?.error({ err: error, bookingId: row.id }, 'booking payment link expiry failed');
    }
  }
  return closed;
}

/** `REQUESTED` bookings past `requestExpiresAt` → `EXPIRED` (emailed). */
export async function expireBookingRequests(
  db: Kysely<Database>,
  options: BookingSweepOptions,
): Promise<number> {
  return expireDue(db, options, await dueBookings(db, options, 'REQUESTED', 'request_expires_at'));
}

/** Pending change requests of bookings that have started → `WITHDRAWN`. */
export async function withdrawStartedChangeRequests(
  db: Kysely<Database>,
  options: SweepOptions,
): Promise<number> {
  const at = options.at.toISOString();
  const result = await sql<{ id: string }>`
    with due as (
      select c.organization_id, c.id from booking_change_requests c
      join bookings b on b.organization_id = c.organization_id and b.id = c.booking_id
      where c.status = 'PENDING' and b.starts_at <= ${at}::timestamptz
      limit ${options.batchSize ?? BOOKINGS_BATCH_SIZE}
      for update of c skip locked
    )
    update booking_change_requests c set status = 'WITHDRAWN', decided_at = ${at}::timestamptz,
      decision_reason = 'BOOKING_STARTED', updated_at = ${at}::timestamptz
    from due where c.organization_id = due.organization_id and c.id = due.id
    returning c.id
  `.execute(db);
  return result.rows.length;
}

/**
 * Deletes management tokens no one can use any more: expired over
 * 30 days ago, or expired and consumed or revoked over 30 days ago. A
 * consumed token stays readable, and its mutation replayable, until it expires.
 */
export async function pruneManagementTokens(db: Kysely<Database>, options: SweepOptions): Promise<number> {
  const at = options.at.toISOString();
  const horizon = new Date(options.at.getTime() - MANAGEMENT_TOKEN_RETENTION_DAYS * DAY_MS).toISOString();
  const result = await sql<{ token_hash: string }>`
    with due as (
      select token_hash from booking_management_tokens
      where expires_at <= ${horizon}::timestamptz
        or (expires_at <= ${at}::timestamptz
          and (consumed_at <= ${horizon}::timestamptz or revoked_at <= ${horizon}::timestamptz))
      limit ${options.batchSize ?? BOOKINGS_BATCH_SIZE}
      for update skip locked
    )
    delete from booking_management_tokens t using due where t.token_hash = due.token_hash
    returning t.token_hash
  `.execute(db);
  return result.rows.length;
}

export interface RunningBookingSweeps {
  runOnce(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * Starts the bookings jobs on their cadences: hold expiry every
 * `BOOKINGS_SWEEP_INTERVAL_MS`, payment windows (and expired balance links) every 15 s, request expiry
 * and withdrawals every 60 s, pruning hourly. Each job repeats its batch
 * while batches come back full.
 */
export function startBookingSweeps(dependencies: {
  db: Kysely<Database>;
  clock: { now(): Date };
  email: CustomerEmailConfig;
  holdIntervalMs: number;
  logger: SweepLogger;
  batchSize?: number;
  intervals?: { paymentMs?: number; requestMs?: number; pruneMs?: number };
}): RunningBookingSweeps {
  const batchSize = dependencies.batchSize ?? BOOKINGS_BATCH_SIZE;
  const { db, logger } = dependencies;
  const drain = async (job: (at: Date) => Promise<number>): Promise<number> => {
    let total = 0;
    for (;;) {
      const done = await job(dependencies.clock.now());
      total += done;
      if (done < batchSize || stopped) return total;
    }
  };
  let stopped = false;
  const jobs = {
    holdsExpired: () => drain((at) => expireBookingHolds(db, { at, batchSize })),
    paymentWindowsExpired: async () =>
      (await drain((at) =>
        expireBookingPaymentWindows(db, { at, batchSize, email: dependencies.email, logger }),
      )) +
      (await drain((at) =>
        expireBookingPaymentLinks(db, { at, batchSize, email: dependencies.email, logger }),
      )),
    requestsExpired: async () =>
      (await drain((at) => expireBookingRequests(db, { at, batchSize, email: dependencies.email, logger }))) +
      (await drain((at) => withdrawStartedChangeRequests(db, { at, batchSize }))),
    tokensPruned: () => drain((at) => pruneManagementTokens(db, { at, batchSize })),
  };
  const run = (name: keyof typeof jobs) => async () => {
    const count = await jobs[name]();
    if (count > 0) logger.info({ [name]: count }, 'bookings sweep');
    return count;
  };
  const onError = (error: unknown) => logger.error({ err: error }, 'bookings sweep failed');
  const schedules = [
    runPeriodically(run('holdsExpired'), { intervalMs: dependencies.holdIntervalMs, onError }),
    runPeriodically(run('paymentWindowsExpired'), {
      intervalMs: dependencies.intervals?.paymentMs ?? 15_000,
      onError,
    }),
    runPeriodically(run('requestsExpired'), {
      intervalMs: dependencies.intervals?.requestMs ?? 60_000,
      onError,
    }),
    runPeriodically(run('tokensPruned'), {
      intervalMs: dependencies.intervals?.pruneMs ?? 3_600_000,
      onError,
    }),
  ];
  return {
    runOnce: async () => ({
      holdsExpired: await jobs.holdsExpired(),
      paymentWindowsExpired: await jobs.paymentWindowsExpired(),
      requestsExpired: await jobs.requestsExpired(),
      tokensPruned: await jobs.tokensPruned(),
    }),
    stop: async () => {
      stopped = true;
      await Promise.all(schedules.map((schedule) => schedule.stop()));
    },
  };
}
