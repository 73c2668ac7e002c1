import type { Clock } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { describeDeliveryFailure } from './errors.ts';
import type { Logger } from './types.ts';

/**
 * How long a claim of an outbox row is exclusive unless renewed. Short, so
 * the rows of a worker that died are claimable again within seconds; a live
 * worker renews its claims for as long as it needs them (docs/notifications.md
 * "Outbox leases").
 */
export const DEFAULT_OUTBOX_LEASE_MS = 15_000;

/**
 * How long one send may take by default, for the worker and for
 * `deliverOutboxRowNow`: shorter than the lease, so a send can end before its
 * row could be claimed again even if no renewal lands meanwhile.
 */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

/**
 * The most a send's margin takes: the time, beyond its delivery timeout, that
 * a row's confirmed lease must still cover when the send starts, so its
 * outcome can be recorded, and another process's clock running slightly
 * ahead cannot see the lease lapse, before the send's time is up.
 */
export const SEND_MARGIN_MS = 1000;

/** The claim of one row: its key and the `attempts` value the claim set, which no other claim shares. */
export interface LeasedRow {
  organization_id: string;
  id: string;
  attempts: number;
}

export interface LeaseHeartbeatOptions {
  db: Kysely<Database>;
  clock: Clock;
  /** Each renewal moves `locked_until` to now plus this. */
  leaseMs: number;
  /** Time between renewals; shorter than `leaseMs`. */
  intervalMs: number;
  /** The longest one send may take; shorter than `leaseMs`, so a send can end before its lease can lapse. */
  deliveryTimeoutMs: number;
  logger: Logger;
  /**
   * The leased table: the email outbox (default) or the webhook outbox, which share the lease
   * columns (`organization_id`, `id`, `status`, `attempts`, `locked_until`).
   */
  table?: 'outbox' | 'webhook_deliveries';
}

export interface LeaseHeartbeat {
  /**
   * Renews the row's lease every `intervalMs` until `release(row)`;
   * `leaseEnd` is the `locked_until` its claim set, confirmed by the claim.
   */
  hold(row: LeasedRow, leaseEnd: Date): void;
  /** Stops renewing the row; the timer stops with the last row released. */
  release(row: LeasedRow): void;
  /**
   * Whether the row may be sent now: true when its confirmed lease outlasts
   * a whole send (the delivery timeout plus a margin), renewing first when
   * it does not yet. False when the row is not held, the renewal failed, or
   * it renewed something else (the row passed to another claim): the caller
   * must not send, and leaves the row to its lease.
   */
  readyToSend(row: LeasedRow): Promise<boolean>;
  /** Renews every held row now, in one statement; resolves to the rows renewed. */
  renew(): Promise<number>;
}

/**
 * The time a row's confirmed lease must still cover when its send starts:
 * the delivery timeout plus a margin of `SEND_MARGIN_MS`, or half of what the
 * lease leaves beyond the timeout when that is less.
 */
export function leaseNeededToSend(deliveryTimeoutMs: number, leaseMs: number): number {
  return deliveryTimeoutMs + Math.min(SEND_MARGIN_MS, Math.floor((leaseMs - deliveryTimeoutMs) / 2));
}

/**
 * Keeps the leases of the rows a process is delivering, and knows, per row,
 * until when its lease is confirmed: the claim's lease end, then the lease end
 * of each renewal that returned that row. One UPDATE per tick renews all of
 * them, and only while each is still this process's claim: PROCESSING with the
 * `attempts` value the claim set. A row whose lease passed to another claim
 * has a higher `attempts` and is left alone, so a renewal never takes a row
 * back. A row locked by another statement at that moment (this process
 * recording its outcome, or another worker claiming it after the lease
 * lapsed) is skipped rather than waited for; the next tick tries again if it
 * is still held. A renewal that failed or skipped a row leaves that row's
 * confirmed lease as it was, and it runs out.
 *
 * A send may start only while the row's confirmed lease outlasts it
 * (`readyToSend`), so a send always ends before its row can be claimed again,
 * however long renewals stall afterwards.
 */
export function createLeaseHeartbeat(options: LeaseHeartbeatOptions): LeaseHeartbeat {
  const { db, clock, leaseMs, intervalMs, deliveryTimeoutMs, logger } = options;
  // Typed as the email outbox: the statements below use only the columns both tables share.
  const table = (options.table ?? 'outbox') as 'outbox';
  if (!(leaseMs > 0)) throw new Error('leaseMs must be positive');
  if (!(intervalMs > 0 && intervalMs < leaseMs)) {
    throw new Error('the lease heartbeat interval must be positive and shorter than leaseMs');
  }
  if (!(deliveryTimeoutMs > 0)) throw new Error('deliveryTimeoutMs must be positive');
  if (!(deliveryTimeoutMs < leaseMs)) {
    throw new Error(
      `deliveryTimeoutMs (${deliveryTimeoutMs} ms) must be shorter than leaseMs (${leaseMs} ms): ` +
        "a send must be able to end before its row's lease can lapse",
    );
  }
  const neededMs = leaseNeededToSend(deliveryTimeoutMs, leaseMs);
  /** Held rows and, for each, the end of its lease as last confirmed by the database (epoch ms). */
  const held = new Map<string, { row: LeasedRow; confirmedUntil: number }>();
  let timer: NodeJS.Timeout | undefined;
  /** The renewal running now, which a tick or a send waiting for one shares rather than doubles. */
  let running: Promise<number> | undefined;

  // With `attempts`: a row this process claims again after its own lease lapsed is a second claim.
  const keyOf = (row: LeasedRow) => `${row.organization_id}\u0000${row.id}\u0000${row.attempts}`;

  async function renewHeld(): Promise<number> {
    const rows = [...held.values()].map((entry) => entry.row);
    if (rows.length === 0) return 0;
    const leaseEnd = clock.now().getTime() + leaseMs;
    const renewed = await db
      .updateTable(table)
      .set({ locked_until: new Date(leaseEnd) })
      .where((eb) =>
        eb(
          eb.refTuple('organization_id', 'id'),
          'in',
          eb
            .selectFrom(table)
            .select(['organization_id', 'id'])
            .where('status', '=', 'PROCESSING')
            .where((inner) =>
              inner(
                inner.refTuple('organization_id', 'id', 'attempts'),
                'in',
                rows.map((row) => inner.tuple(row.organization_id, row.id, row.attempts)),
              ),
            )
            .forUpdate()
            .skipLocked()
            .$asTuple('organization_id', 'id'),
        ),
      )
      // Only the rows it returns are confirmed: the others were skipped or are another claim's now.
      .returning(['organization_id', 'id', 'attempts'])
      .execute();
    for (const row of renewed) {
      const entry = held.get(keyOf(row));
      // The lease end was computed before the statement ran, so it never overstates the lease.
      if (entry && entry.confirmedUntil < leaseEnd) entry.confirmedUntil = leaseEnd;
    }
    return renewed.length;
  }

  function renew(): Promise<number> {
    running ??= renewHeld().finally(() => {
      running = undefined;
    });
    return running;
  }

  function tick(): void {
    // A renewal still waiting on the database is not doubled up.
    if (running !== undefined) return;
    renew().catch((error: unknown) => {
      // The next tick tries again; a send starts only on a lease confirmed long enough.
      logger.warn({ error: describeDeliveryFailure(error), rows: held.size }, 'outbox lease renewal failed');
    });
  }

  /** Whether the row is held and its confirmed lease outlasts a send starting now. */
  function coversSend(row: LeasedRow): boolean {
    const entry = held.get(keyOf(row));
    return entry !== undefined && entry.confirmedUntil - clock.now().getTime() > neededMs;
  }

  return {
    hold(row, leaseEnd) {
      held.set(keyOf(row), { row, confirmedUntil: leaseEnd.getTime() });
      if (timer === undefined) {
        timer = setInterval(tick, intervalMs);
        // Deliveries keep a stopping process busy, not their heartbeat.
        timer.unref();
      }
    },
    release(row) {
      held.delete(keyOf(row));
      if (held.size === 0 && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
      }
    },
    async readyToSend(row) {
      if (coversSend(row)) return true;
      try {
        // A renewal already running may have started before this row's lease was short: wait for it, then renew.
        if (running !== undefined) await running.catch(() => undefined);
        if (coversSend(row)) return true;
        await renew();
      } catch (error) {
        logger.warn(
          { error: describeDeliveryFailure(error), rows: held.size },
          'outbox lease renewal failed',
        );
        return false;
      }
      return coversSend(row);
    },
    renew,
  };
}
