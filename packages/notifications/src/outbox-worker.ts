import { type Clock, systemClock } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { EMAIL_OUTBOX_KIND } from './enqueue-email.ts';
import { describeDeliveryFailure, isPermanentDeliveryError, TransientDeliveryError } from './errors.ts';
import { type DeliveryContext, type EmailTransport, type Logger, silentLogger } from './types.ts';

export interface OutboxWorkerOptions {
  db: Kysely<Database>;
  transport: EmailTransport;
  clock?: Clock;
  logger?: Logger;
  /** Rows claimed per run; they are delivered in parallel. */
  batchSize?: number;
  /** How long a claim is exclusive; a claim older than this is taken to be a crashed delivery. */
  leaseMs?: number;
  /** Deliveries tried, the first included, before a row is FAILED. */
  maxAttempts?: number;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  pollIntervalMs?: number;
  /** DONE and FAILED rows are deleted this long after they finished. */
  retentionDays?: number;
  /** A send still running after this is abandoned as a transient failure. Must be shorter than the lease. */
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
  /** Claims one batch of due rows, delivers it, and prunes old rows when a prune is due. */
  runOnce(): Promise<OutboxRunResult>;
  /** Polls until `stop()`: one run at a time, the next at once when a run claimed a full batch. */
  start(): void;
  /** Stops polling and waits for the run in flight, so no claim is left to its lease. */
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

type Outcome = 'delivered' | 'retried' | 'failed' | 'superseded';

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, transport } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const batchSize = options.batchSize ?? 10;
  const leaseMs = options.leaseMs ?? 60_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const backoff = {
    baseBackoffMs: options.baseBackoffMs ?? 2000,
    maxBackoffMs: options.maxBackoffMs ?? 3_600_000,
  };
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const retentionMs = (options.retentionDays ?? 7) * DAY_MS;
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? Math.floor(leaseMs / 2);
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  const random = options.random ?? Math.random;

  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new Error('batchSize must be a positive integer');
  }
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new Error('maxAttempts must be a positive integer');
  }
  if (!(deliveryTimeoutMs > 0 && deliveryTimeoutMs < leaseMs)) {
    throw new Error('deliveryTimeoutMs must be positive and shorter than leaseMs');
  }

  let lastPruneAt: number | undefined;

  async function claim(now: Date): Promise<ClaimedRow[]> {
    const leaseEnd = new Date(now.getTime() + leaseMs);
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
        .limit(batchSize)
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
      // CONTRACT.md section 8: the rendered body, which may hold a credential, goes with delivery.
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

  async function runOnce(): Promise<OutboxRunResult> {
    const claimed = await claim(clock.now());
    // Provider I/O happens here, after the claim's transaction committed and outside any other.
    const settled = await Promise.allSettled(claimed.map((row) => deliver(row)));
    const result: OutboxRunResult = {
      claimed: claimed.length,
      delivered: 0,
      retried: 0,
      failed: 0,
      pruned: 0,
    };
    settled.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') {
        if (outcome.value !== 'superseded') result[outcome.value] += 1;
        return;
      }
      // The row stays PROCESSING; its lease expiring hands it to the next run.
      const row = claimed[index]!;
      logger.error(
        { ...logFields(row), error: describeDeliveryFailure(outcome.reason) },
        'could not record the outcome of a delivery',
      );
    });
    try {
      result.pruned = await prune(clock.now());
    } catch (error) {
      logger.error({ error: describeDeliveryFailure(error) }, 'outbox prune failed');
    }
    return result;
  }

  let isRunning = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      timer = undefined;
      inFlight = poll().finally(() => {
        inFlight = undefined;
      });
    }, delayMs);
  }

  async function poll(): Promise<void> {
    let isBacklogged = false;
    try {
      const result = await runOnce();
      isBacklogged = result.claimed >= batchSize;
    } catch (error) {
      logger.error({ error: describeDeliveryFailure(error) }, 'outbox run failed');
    }
    if (isRunning) schedule(isBacklogged ? 0 : pollIntervalMs);
  }

  return {
    runOnce,
    start() {
      if (isRunning) return;
      isRunning = true;
      schedule(0);
    },
    async stop() {
      isRunning = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await inFlight;
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
