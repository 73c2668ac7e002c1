import { type Clock, systemClock } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { EMAIL_OUTBOX_KIND } from './enqueue-email.ts';
import { describeDeliveryFailure, isPermanentDeliveryError, TransientDeliveryError } from './errors.ts';
import {
  createLeaseHeartbeat,
  DEFAULT_DELIVERY_TIMEOUT_MS,
  DEFAULT_OUTBOX_LEASE_MS,
} from './outbox-lease.ts';
import { type DeliveryContext, type EmailTransport, type Logger, silentLogger } from './types.ts';

export interface OutboxWorkerOptions {
  db: Kysely<Database>;
  transport: EmailTransport;
  clock?: Clock;
  logger?: Logger;
  /**
   * Deliveries in flight at once in this worker (default 10). The SMTP
   * transport's pool should hold as many connections; several workers
   * share one queue through `SKIP LOCKED` claims.
   */
  concurrency?: number;
  /** Most rows one claim takes (default: `concurrency`). */
  batchSize?: number;
  /**
   * How long a claim is exclusive unless renewed (default 15 s). While this
   * worker holds a claim it renews it every `heartbeatMs`, so only a claim
   * whose worker stopped renewing (crashed, or cut off from the database)
   * lapses and is claimed again.
   */
  leaseMs?: number;
  /** Time between lease renewals (default a third of `leaseMs`); shorter than `leaseMs`. */
  heartbeatMs?: number;
  /** Deliveries tried, the first included, before a row is FAILED. */
  maxAttempts?: number;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  pollIntervalMs?: number;
  /** DONE and FAILED rows are deleted this long after they finished. */
  retentionDays?: number;
  /**
   * A send still running after this is abandoned as a transient failure
   * (default 10 s). Shorter than `leaseMs`: a send starts only while its
   * row's confirmed lease outlasts this plus a margin, so it ends before the
   * row could be claimed again, whether or not renewals land meanwhile.
   */
  deliveryTimeoutMs?: number;
  /** Least time between two prunes by this worker. */
  pruneIntervalMs?: number;
  /** Source of jitter, in [0, 1); injectable so tests can expect exact times. */
  random?: () => number;
}

export interface OutboxRunResult {
  claimed: number;
  delivered: number;
  retried: number;
  failed: number;
  pruned: number;
}

export interface OutboxWorker {
  /**
   * Claims one batch of due rows, delivers it (at most `concurrency` sends at
   * once), and prunes old rows when a prune is due.
   */
  runOnce(): Promise<OutboxRunResult>;
  /**
   * Delivers until `stop()`, keeping up to `concurrency` sends in flight: it
   * claims more rows as soon as half the slots are free, so one slow send
   * never holds up the rest, and waits `pollIntervalMs` once the queue has
   * nothing due.
   */
  start(): void;
  /**
   * Stops claiming and waits for the deliveries in flight, so no claim is left
   * to its lease; their leases are renewed until each ends.
   */
  stop(): Promise<void>;
}

const DAY_MS = 86_400_000;
const PRUNE_BATCH = 1000;
const MAX_PRUNE_BATCHES_PER_RUN = 20;
/** A retry waits between 80% and 100% of its exponential delay, so rows failed together spread out. */
const JITTER_RATIO = 0.2;

/** The rendered message as the outbox stores it (`outbox.payload`). */
export const storedMessageSchema = z.object({
  from: z.string().optional(),
  to: z.string().min(1),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  replyTo: z.string().optional(),
});

/**
 * Delay before retry number `attempts` (1 after the first failure):
 * min(maxBackoff, base * 2^(attempts - 1)), less up to 20% jitter.
 */
export function retryDelayMs(
  attempts: number,
  options: { baseBackoffMs: number; maxBackoffMs: number },
  random: () => number = Math.random,
): number {
  const exponential = options.baseBackoffMs * 2 ** Math.max(0, attempts - 1);
  const capped = Math.min(options.maxBackoffMs, exponential);
  return Math.round(capped * (1 - JITTER_RATIO * random()));
}

interface ClaimedRow {
  organization_id: string;
  id: string;
  /** The value this claim set; later writes match on it, so a newer claim of the row is never overwritten. */
  attempts: number;
  metadata: Record<string, unknown>;
  payload: Record<string, unknown> | null;
}

/** `unsent`: the row's lease could not be confirmed for a whole send; it is left to its lease. */
type Outcome = 'delivered' | 'retried' | 'failed' | 'superseded' | 'unsent';

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, transport } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const concurrency = options.concurrency ?? 10;
  const batchSize = options.batchSize ?? concurrency;
  const leaseMs = options.leaseMs ?? DEFAULT_OUTBOX_LEASE_MS;
  const heartbeatMs = options.heartbeatMs ?? Math.floor(leaseMs / 3);
  const maxAttempts = options.maxAttempts ?? 8;
  const backoff = {
    baseBackoffMs: options.baseBackoffMs ?? 2000,
    maxBackoffMs: options.maxBackoffMs ?? 3_600_000,
  };
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const retentionMs = (options.retentionDays ?? 7) * DAY_MS;
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  const random = options.random ?? Math.random;

  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error('concurrency must be a positive integer');
  }
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new Error('batchSize must be a positive integer');
  }
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new Error('maxAttempts must be a positive integer');
  }
  // Checks leaseMs, heartbeatMs and deliveryTimeoutMs (shorter than the lease).
  const heartbeat = createLeaseHeartbeat({
    db,
    clock,
    leaseMs,
    intervalMs: heartbeatMs,
    deliveryTimeoutMs,
    logger,
  });

  let lastPruneAt: number | undefined;

  /** Claims up to `limit` due rows; the heartbeat renews each until `settle` has finished with it. */
  async function claim(now: Date, limit: number): Promise<ClaimedRow[]> {
    const leaseEnd = new Date(now.getTime() + leaseMs);
    const claimed = await claimRows(now, leaseEnd, limit);
    for (const row of claimed) heartbeat.hold(row, leaseEnd);
    return claimed;
  }

  async function claimRows(now: Date, leaseEnd: Date, limit: number): Promise<ClaimedRow[]> {
    return db.transaction().execute(async (trx) => {
      // Only `trx` in here: the embedded database is one connection, held by this transaction.
      const due = await trx
        .selectFrom('outbox')
        .select(['organization_id', 'id'])
        .where('kind', '=', EMAIL_OUTBOX_KIND)
        // Literal, so PostgreSQL can use the partial index outbox_due_idx.
        .where(sql<boolean>`status in ('PENDING', 'PROCESSING')`)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'PENDING'), eb('next_attempt_at', '<=', now)]),
            eb.and([eb('status', '=', 'PROCESSING'), eb('locked_until', '<', now)]),
          ]),
        )
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (due.length === 0) return [];
      return trx
        .updateTable('outbox')
        .set((eb) => ({ status: 'PROCESSING', locked_until: leaseEnd, attempts: eb('attempts', '+', 1) }))
        .where((eb) =>
          eb(
            eb.refTuple('organization_id', 'id'),
            'in',
            due.map((row) => eb.tuple(row.organization_id, row.id)),
          ),
        )
        .returning(['organization_id', 'id', 'attempts', 'metadata', 'payload'])
        .execute();
    });
  }

  /** Updates the row only while it is still this claim's: PROCESSING with the attempts value the claim set. */
  function ownedBy(row: ClaimedRow) {
    return db
      .updateTable('outbox')
      .where('organization_id', '=', row.organization_id)
      .where('id', '=', row.id)
      .where('status', '=', 'PROCESSING')
      .where('attempts', '=', row.attempts);
  }

  function logFields(row: ClaimedRow): Record<string, unknown> {
    return {
      outboxId: row.id,
      organizationId: row.organization_id,
      templateType: row.metadata.templateType,
      recipientDomain: row.metadata.recipientDomain,
      attempts: row.attempts,
    };
  }

  async function markDelivered(row: ClaimedRow): Promise<Outcome> {
    const now = clock.now();
    const result = await ownedBy(row)
      // The rendered body, which may hold a credential, is not kept after delivery.
      .set({ status: 'DONE', delivered_at: now, payload: null, locked_until: null, last_error: null })
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) {
      logger.warn(logFields(row), 'email delivered after its lease passed to another claim');
      return 'superseded';
    }
    logger.info(logFields(row), 'email delivered');
    return 'delivered';
  }

  async function markFailed(row: ClaimedRow, lastError: string): Promise<Outcome> {
    const now = clock.now();
    const result = await ownedBy(row)
      // delivered_at doubles as "finished at", which the prune reads.
      .set({ status: 'FAILED', delivered_at: now, payload: null, locked_until: null, last_error: lastError })
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return 'superseded';
    logger.error({ ...logFields(row), error: lastError }, 'email delivery failed for good');
    return 'failed';
  }

  async function recordFailure(row: ClaimedRow, error: unknown): Promise<Outcome> {
    const lastError = describeDeliveryFailure(error);
    if (isPermanentDeliveryError(error) || row.attempts >= maxAttempts) return markFailed(row, lastError);
    const now = clock.now();
    const nextAttemptAt = new Date(now.getTime() + retryDelayMs(row.attempts, backoff, random));
    const result = await ownedBy(row)
      .set({ status: 'PENDING', next_attempt_at: nextAttemptAt, locked_until: null, last_error: lastError })
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return 'superseded';
    logger.warn({ ...logFields(row), error: lastError, nextAttemptAt }, 'email delivery failed; will retry');
    return 'retried';
  }

  async function deliver(row: ClaimedRow): Promise<Outcome> {
    // Only a delivery that crashed on the last allowed attempt comes back with more attempts than allowed.
    if (row.attempts > maxAttempts) return markFailed(row, 'lease expired on the final attempt');
    const message = storedMessageSchema.safeParse(row.payload);
    if (!message.success) return markFailed(row, 'payload missing or invalid');
    const templateType = row.metadata.templateType;
    const context: DeliveryContext = {
      organizationId: row.organization_id,
      outboxId: row.id,
      ...(typeof templateType === 'string' ? { templateType } : {}),
    };
    // A row that waited for a send slot may have had its renewals fail; one whose lease may lapse mid-send is not sent.
    if (!(await heartbeat.readyToSend(row))) {
      logger.warn(logFields(row), 'email not sent: its lease could not be confirmed for a whole send');
      return 'unsent';
    }
    try {
      await withTimeout(() => transport.send(message.data, context), deliveryTimeoutMs);
    } catch (error) {
      return recordFailure(row, error);
    }
    return markDelivered(row);
  }

  async function prune(now: Date): Promise<number> {
    if (lastPruneAt !== undefined && now.getTime() - lastPruneAt < pruneIntervalMs) return 0;
    lastPruneAt = now.getTime();
    const cutoff = new Date(now.getTime() - retentionMs);
    let pruned = 0;
    // Bounded batches keep each delete short; what is left waits for the next prune.
    for (let batch = 0; batch < MAX_PRUNE_BATCHES_PER_RUN; batch++) {
      const result = await db
        .deleteFrom('outbox')
        .where((eb) =>
          eb(
            eb.refTuple('organization_id', 'id'),
            'in',
            eb
              .selectFrom('outbox')
              .select(['organization_id', 'id'])
              .where(sql<boolean>`status in ('DONE', 'FAILED')`)
              .where('delivered_at', '<', cutoff)
              .limit(PRUNE_BATCH)
              .$asTuple('organization_id', 'id'),
          ),
        )
        .executeTakeFirst();
      const deleted = Number(result.numDeletedRows);
      pruned += deleted;
      if (deleted < PRUNE_BATCH) break;
    }
    if (pruned > 0) logger.info({ pruned }, 'outbox rows pruned');
    return pruned;
  }

  /**
   * Delivers one claimed row and records its outcome; undefined when the
   * outcome could not be recorded (the row stays PROCESSING, is no longer
   * renewed, and its lease expiring hands it to a later claim). `unsent` rows
   * are left to their lease the same way.
   */
  async function settle(row: ClaimedRow): Promise<Outcome | undefined> {
    try {
      // Provider I/O happens here, after the claim's transaction committed and outside any other.
      return await deliver(row);
    } catch (error) {
      logger.error(
        { ...logFields(row), error: describeDeliveryFailure(error) },
        'could not record the outcome of a delivery',
      );
      return undefined;
    } finally {
      heartbeat.release(row);
    }
  }

  async function pruneSafely(): Promise<number> {
    try {
      return await prune(clock.now());
    } catch (error) {
      logger.error({ error: describeDeliveryFailure(error) }, 'outbox prune failed');
      return 0;
    }
  }

  async function runOnce(): Promise<OutboxRunResult> {
    const claimed = await claim(clock.now(), batchSize);
    const result: OutboxRunResult = {
      claimed: claimed.length,
      delivered: 0,
      retried: 0,
      failed: 0,
      pruned: 0,
    };
    // `concurrency` lanes, each taking the next row when its send is done.
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) {
        const outcome = await settle(claimed[next++]!);
        if (outcome !== undefined && outcome !== 'superseded' && outcome !== 'unsent') result[outcome] += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, lane));
    result.pruned = await pruneSafely();
    return result;
  }

  // start() and stop(): a loop that keeps up to `concurrency` deliveries in flight.
  const inFlight = new Set<Promise<unknown>>();
  /** Claim again once this many slots are free: fewer, larger claims, yet no lane idles for long. */
  const claimWhenFree = Math.max(1, Math.floor(concurrency / 2));
  let isRunning = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  /** Resolves after `ms`, or earlier when stop() is called (at once when it already was). */
  function pause(ms: number): Promise<void> {
    if (!isRunning) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  async function deliverContinuously(): Promise<void> {
    while (isRunning) {
      const free = concurrency - inFlight.size;
      if (free < claimWhenFree) {
        await Promise.race(inFlight);
        continue;
      }
      const limit = Math.min(free, batchSize);
      let claimed: ClaimedRow[];
      try {
        claimed = await claim(clock.now(), limit);
      } catch (error) {
        logger.error({ error: describeDeliveryFailure(error) }, 'outbox claim failed');
        await pause(pollIntervalMs);
        continue;
      }
      for (const row of claimed) {
        const delivery: Promise<unknown> = settle(row).finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
      }
      // At most once per pruneIntervalMs, backlog or not.
      await pruneSafely();
      // A short claim means nothing else is due now: wait for the next poll.
      if (claimed.length < limit) await pause(pollIntervalMs);
    }
    await Promise.all(inFlight);
  }

  return {
    runOnce,
    start() {
      if (isRunning) return;
      isRunning = true;
      // A loop still finishing after stop() simply carries on.
      if (loop !== undefined) return;
      loop = deliverContinuously().finally(() => {
        loop = undefined;
      });
    },
    async stop() {
      isRunning = false;
      wake?.();
      await loop;
    },
  };
}

/** Runs one send, failing it as transient when it outlasts `timeoutMs`. */
export function withTimeout(send: () => Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new TransientDeliveryError(`delivery timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    // A send that hangs must not keep a stopping process alive.
    timer.unref();
  });
  // Promise.resolve().then turns a transport that throws synchronously into a rejection.
  return Promise.race([Promise.resolve().then(send), timeout]).finally(() => clearTimeout(timer));
}
