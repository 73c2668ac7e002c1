import { AppError, type Clock, systemClock } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { EMAIL_OUTBOX_KIND, type EnqueueEmailInput, enqueueEmail } from './enqueue-email.ts';
import { describeDeliveryFailure, isPermanentDeliveryError } from './errors.ts';
import {
  createLeaseHeartbeat,
  DEFAULT_DELIVERY_TIMEOUT_MS,
  DEFAULT_OUTBOX_LEASE_MS,
  type LeaseHeartbeat,
} from './outbox-lease.ts';
import { storedMessageSchema, withTimeout } from './outbox-worker.ts';
import { type DeliveryContext, type EmailTransport, type Logger, silentLogger } from './types.ts';

/** One outbox row: its tenant and id. */
export interface OutboxRowRef {
  organizationId: string;
  outboxId: string;
}

/**
 * How long the worker leaves a row queued for immediate delivery alone. The
 * caller claims it right after its transaction commits; only a process that
 * died in between leaves it to the worker, which then delivers it late.
 */
export const IMMEDIATE_DELIVERY_HOLD_MS = 10 * 60_000;

/**
 * Queues an email that the caller delivers itself, with `deliverOutboxRowNow`,
 * once the transaction it passes commits. The row is due only after
 * `IMMEDIATE_DELIVERY_HOLD_MS`, so the polling worker does not race the caller
 * for it.
 */
export async function enqueueEmailForImmediateDelivery(
  db: Kysely<Database>,
  input: EnqueueEmailInput,
): Promise<string> {
  const id = await enqueueEmail(db, input);
  const at = new Date(input.at);
  await db
    .updateTable('outbox')
    .set({ next_attempt_at: new Date(at.getTime() + IMMEDIATE_DELIVERY_HOLD_MS) })
    .where('organization_id', '=', input.organizationId)
    .where('id', '=', id)
    .execute();
  return id;
}

export interface DeliverNowOptions {
  logger?: Logger;
  /** How long the claim is exclusive unless renewed (as the worker's lease, default 15 s). */
  leaseMs?: number;
  /** Time between lease renewals while the send runs (default a third of `leaseMs`). */
  heartbeatMs?: number;
  /**
   * A send still running after this fails as unreachable (default 10 s).
   * Shorter than `leaseMs`: the send starts only while the row's confirmed
   * lease outlasts it, as in the worker.
   */
  deliveryTimeoutMs?: number;
}

export interface DeliverNowResult {
  outboxId: string;
  deliveredAt: Date;
}

interface ClaimedRow {
  organization_id: string;
  id: string;
  attempts: number;
  metadata: Record<string, unknown>;
  payload: Record<string, unknown> | null;
}

/**
 * Delivers one PENDING outbox row at once, for an operation that must report
 * the outcome in its own response (an email template's send-test). The row
 * goes through the worker's states: claimed (`for update skip locked`, then
 * PROCESSING with a lease and one more attempt; the lease is renewed while
 * the send runs, and the send starts only while that lease surely outlasts
 * it, as the worker does), sent outside any transaction, then
 * DONE, or FAILED on any failure, its rendered payload cleared either way.
 * It is never put back for a retry: the caller reports the failure now, and
 * a copy arriving later would surprise whoever retried.
 *
 * Throws AppError PROVIDER_ERROR (502) when the provider refused the message
 * for good (`PermanentDeliveryError`), PROVIDER_UNAVAILABLE (503) for any
 * other failure (unreachable, timed out, deferred). Throws
 * SERVICE_UNAVAILABLE (503), without sending, when the lease could not be
 * confirmed for a whole send (the database was slow or failing): that row
 * stays PROCESSING and the worker sends it once its lease lapses.
 */
export async function deliverOutboxRowNow(
  db: Kysely<Database>,
  transport: EmailTransport,
  ref: OutboxRowRef,
  clock: Clock = systemClock,
  options: DeliverNowOptions = {},
): Promise<DeliverNowResult> {
  const logger = options.logger ?? silentLogger;
  const leaseMs = options.leaseMs ?? DEFAULT_OUTBOX_LEASE_MS;
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  // Checks leaseMs, the interval and deliveryTimeoutMs (shorter than the lease) before anything is claimed.
  const heartbeat = createLeaseHeartbeat({
    db,
    clock,
    leaseMs,
    intervalMs: options.heartbeatMs ?? Math.floor(leaseMs / 3),
    deliveryTimeoutMs,
    logger,
  });

  const leaseEnd = new Date(clock.now().getTime() + leaseMs);
  const row = await claim(db, ref, leaseEnd);
  // Another claim holds it, or it was delivered already: nothing this call may report as its own.
  if (!row) throw new Error('The outbox row is not pending');
  heartbeat.hold(row, leaseEnd);
  try {
    return await deliverClaimed(db, transport, row, clock, { logger, deliveryTimeoutMs, heartbeat });
  } finally {
    heartbeat.release(row);
  }
}

async function deliverClaimed(
  db: Kysely<Database>,
  transport: EmailTransport,
  row: ClaimedRow,
  clock: Clock,
  options: { logger: Logger; deliveryTimeoutMs: number; heartbeat: LeaseHeartbeat },
): Promise<DeliverNowResult> {
  const { logger, deliveryTimeoutMs, heartbeat } = options;

  const logFields = {
    outboxId: row.id,
    organizationId: row.organization_id,
    templateType: row.metadata.templateType,
    recipientDomain: row.metadata.recipientDomain,
    attempts: row.attempts,
  };
  const message = storedMessageSchema.safeParse(row.payload);
  if (!message.success) {
    await finish(db, row, { status: 'FAILED', lastError: 'payload missing or invalid', at: clock.now() });
    throw new Error('The outbox row has no valid payload');
  }
  const templateType = row.metadata.templateType;
  const context: DeliveryContext = {
    organizationId: row.organization_id,
    outboxId: row.id,
    ...(typeof templateType === 'string' ? { templateType } : {}),
  };

  // Not sent unless the lease surely outlasts the send (a slow claim, or the database failing to renew):
  // the row is left to its lease, and the worker sends it once that lapses.
  if (!(await heartbeat.readyToSend(row))) {
    logger.warn(logFields, 'email not sent now: its lease could not be confirmed for a whole send');
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'The email could not be sent now; it stays queued and is delivered shortly',
    );
  }
  try {
    await withTimeout(() => transport.send(message.data, context), deliveryTimeoutMs);
  } catch (error) {
    const lastError = describeDeliveryFailure(error);
    await finish(db, row, { status: 'FAILED', lastError, at: clock.now() });
    logger.error({ ...logFields, error: lastError }, 'immediate email delivery failed');
    if (isPermanentDeliveryError(error)) {
      throw new AppError('PROVIDER_ERROR', 'The email provider refused the message');
    }
    throw new AppError('PROVIDER_UNAVAILABLE', 'The email provider could not be reached');
  }
  const deliveredAt = clock.now();
  await finish(db, row, { status: 'DONE', lastError: null, at: deliveredAt });
  logger.info(logFields, 'email delivered');
  return { outboxId: row.id, deliveredAt };
}

async function claim(
  db: Kysely<Database>,
  ref: OutboxRowRef,
  leaseEnd: Date,
): Promise<ClaimedRow | undefined> {
  return db.transaction().execute(async (trx) => {
    // Only `trx` in here: the embedded database is one connection, held by this transaction.
    const pending = await trx
      .selectFrom('outbox')
      .select(['organization_id', 'id'])
      .where('organization_id', '=', ref.organizationId)
      .where('id', '=', ref.outboxId)
      .where('kind', '=', EMAIL_OUTBOX_KIND)
      .where('status', '=', 'PENDING')
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!pending) return undefined;
    return trx
      .updateTable('outbox')
      .set((eb) => ({ status: 'PROCESSING', locked_until: leaseEnd, attempts: eb('attempts', '+', 1) }))
      .where('organization_id', '=', pending.organization_id)
      .where('id', '=', pending.id)
      .returning(['organization_id', 'id', 'attempts', 'metadata', 'payload'])
      .executeTakeFirstOrThrow();
  });
}

/** Records the outcome while the row is still this claim's, as the worker does; the body goes either way. */
async function finish(
  db: Kysely<Database>,
  row: ClaimedRow,
  outcome: { status: 'DONE' | 'FAILED'; lastError: string | null; at: Date },
): Promise<void> {
  await db
    .updateTable('outbox')
    // delivered_at doubles as "finished at", which the worker's prune reads.
    .set({
      status: outcome.status,
      delivered_at: outcome.at,
      payload: null,
      locked_until: null,
      last_error: outcome.lastError,
    })
    .where('organization_id', '=', row.organization_id)
    .where('id', '=', row.id)
    .where('status', '=', 'PROCESSING')
    .where('attempts', '=', row.attempts)
    .execute();
}
