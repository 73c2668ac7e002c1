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
  logger: Logger;
}

export interface LeaseHeartbeat {
  /** Renews the row's lease every `intervalMs` until `release(row)`. */
  hold(row: LeasedRow): void;
  /** Stops renewing the row; the timer stops with the last row released. */
  release(row: LeasedRow): void;
  /** Renews every held row now, in one statement; resolves to the rows renewed. */
  renew(): Promise<number>;
}

/**
 * Keeps the leases of the rows a process is delivering. One UPDATE per tick
 * renews all of them, and only while each is still this process's claim:
 * PROCESSING with the `attempts` value the claim set. A row whose lease passed
 * to another claim has a higher `attempts` and is left alone, so a renewal
 * never takes a row back. A row locked by another statement at that moment
 * (this process recording its outcome, or another worker claiming it after
 * the lease lapsed) is skipped rather than waited for; the next tick tries
 * again if it is still held.
 */
export function createLeaseHeartbeat(options: LeaseHeartbeatOptions): LeaseHeartbeat {
  const { db, clock, leaseMs, intervalMs, logger } = options;
  if (!(leaseMs > 0)) throw new Error('leaseMs must be positive');
  if (!(intervalMs > 0 && intervalMs < leaseMs)) {
    throw new Error('the lease heartbeat interval must be positive and shorter than leaseMs');
  }
  const held = new Map<string, LeasedRow>();
  let timer: NodeJS.Timeout | undefined;
  let renewing = false;

  // With `attempts`: a row this process claims again after its own lease lapsed is a second claim.
  const keyOf = (row: LeasedRow) => `${row.organization_id}\u0000${row.id}\u0000${row.attempts}`;

  async function renew(): Promise<number> {
    const rows = [...held.values()];
    if (rows.length === 0) return 0;
    const leaseEnd = new Date(clock.now().getTime() + leaseMs);
    const result = await db
      .updateTable('outbox')
      .set({ locked_until: leaseEnd })
      .where((eb) =>
        eb(
          eb.refTuple('organization_id', 'id'),
          'in',
          eb
            .selectFrom('outbox')
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
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  function tick(): void {
    // A renewal still waiting on the database is not doubled up.
    if (renewing) return;
    renewing = true;
    renew()
      .catch((error: unknown) => {
        // The next tick tries again; the lease covers two missed ticks by default.
        logger.warn(
          { error: describeDeliveryFailure(error), rows: held.size },
          'outbox lease renewal failed',
        );
      })
      .finally(() => {
        renewing = false;
      });
  }

  return {
    hold(row) {
      held.set(keyOf(row), row);
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
    renew,
  };
}
