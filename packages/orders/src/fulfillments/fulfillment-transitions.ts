import { AppError, newId } from '@commerce/core';
import {
  type Database,
  type Fulfillment,
  type FulfillmentPostage,
  type FulfillmentRecordStatus,
  inTransaction,
  recordAudit,
  withIdempotency,
} from '@commerce/db';
import type { Kysely } from 'kysely';
import type { KeyedOutcome } from './create-direct-fulfillment.ts';
import { findFulfillment, readFulfillment } from './fulfillment-read.ts';
import {
  assertFulfillable,
  changeCounters,
  type LockedRecord,
  lockRecord,
  lockRequestedLines,
  resolveRecordId,
} from './fulfillment-target.ts';
import type {
  AttachExternalPostageInput,
  CancelFulfillmentInput,
  DeliverFulfillmentInput,
  FulfillmentContext,
  FulfillmentRead,
  HandOffFulfillmentInput,
} from './schemas.ts';
import { assertPastInstant, completeShipment } from './ship-fulfillment.ts';

export const HANDOFF_OPERATION =
  'POST /merchant/commerce/orders/:recordId/fulfillments/:fulfillmentId/handoff';

/** Every move the table of 13.2 does not list: 409 INVALID_STATE_TRANSITION, `details { from, to }`. */
function invalidMove(from: FulfillmentRecordStatus, to: FulfillmentRecordStatus): AppError {
  return new AppError('INVALID_STATE_TRANSITION', `A ${from} fulfillment cannot become ${to}`, { from, to });
}

/** The fulfillment's postage, newest first; the current one is ACTIVE or VOID_PENDING. */
async function postagesOf(trx: Kysely<Database>, fulfillment: Fulfillment): Promise<FulfillmentPostage[]> {
  return trx
    .selectFrom('fulfillment_postages')
    .selectAll()
    .where('organization_id', '=', fulfillment.organization_id)
    .where('fulfillment_id', '=', fulfillment.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

const currentPostage = (postages: readonly FulfillmentPostage[]) =>
  postages.find((postage) => postage.status === 'ACTIVE' || postage.status === 'VOID_PENDING');

/** Source NATIVE or LEGACY in ACTIVE or VOID_PENDING: the spec's "current paid native postage". */
const isPaidNative = (postage: FulfillmentPostage | undefined) =>
  postage !== undefined && (postage.source === 'NATIVE' || postage.source === 'LEGACY');

/** Locks the record pair, then the fulfillment (13.4 order: record, fulfillment, lines, variants). */
async function lockFulfillment(
  trx: Kysely<Database>,
  ctx: FulfillmentContext,
  salesRecordId: string,
  fulfillmentId: string,
): Promise<{ target: LockedRecord; fulfillment: Fulfillment }> {
  const target = await lockRecord(trx, ctx.organizationId, salesRecordId);
  const fulfillment = await findFulfillment(trx, ctx.organizationId, salesRecordId, fulfillmentId, 'update');
  return { target, fulfillment };
}

async function linesOf(trx: Kysely<Database>, fulfillment: Fulfillment) {
  return trx
    .selectFrom('fulfillment_lines')
    .selectAll()
    .where('organization_id', '=', fulfillment.organization_id)
    .where('fulfillment_id', '=', fulfillment.id)
    .orderBy('position')
    .execute();
}

/**
 * `POST …/external-postage`: a label bought elsewhere. `PLANNED` →
 * `READY` with postage EXTERNAL ACTIVE; a `READY` one whose postage was
 * voided or retired gets it as replacement. Current paid native postage is
 * 409 PAID_POSTAGE_ACTIVE; any other state 409 INVALID_STATE_TRANSITION; an
 * order no longer fulfillable 409 ORDER_NOT_FULFILLABLE. Counters stay (the
 * units were allocated by the plan). Audits `fulfillment.external_postage_attached`.
 */
export async function attachExternalPostage(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  input: AttachExternalPostageInput,
): Promise<FulfillmentRead> {
  const salesRecordId = await resolveRecordId(db, ctx.organizationId, input.recordId);
  return inTransaction(db, async (trx) => {
    const { target, fulfillment } = await lockFulfillment(trx, ctx, salesRecordId, input.fulfillmentId);
    assertFulfillable(target);
    const postages = await postagesOf(trx, fulfillment);
    const current = currentPostage(postages);
    if (fulfillment.status === 'READY' && isPaidNative(current))
      throw new AppError('PAID_POSTAGE_ACTIVE', 'The fulfillment has current paid postage; cancel it first');
    if (fulfillment.status !== 'PLANNED' && !(fulfillment.status === 'READY' && current === undefined))
      throw invalidMove(fulfillment.status, 'READY');
    await trx
      .insertInto('fulfillment_postages')
      .values({
        organization_id: ctx.organizationId,
        id: newId('pst', ctx.at),
        fulfillment_id: fulfillment.id,
        source: 'EXTERNAL',
        status: 'ACTIVE',
        carrier: input.carrier,
        service: input.service ?? null,
        tracking_number: input.trackingNumber,
        tracking_url: input.trackingUrl ?? null,
        charge_in_cents: null,
        currency: null,
        purchase_id: null,
        purchased_at: null,
        retired_at: null,
        retirement_evidence: null,
        created_at: ctx.at,
      })
      .execute();
    await trx
      .updateTable('fulfillments')
      .set((eb) => ({ status: 'READY', updated_at: ctx.at, version: eb('version', '+', 1) }))
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', fulfillment.id)
      .execute();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'fulfillment.external_postage_attached',
      targetType: 'fulfillment',
      targetId: fulfillment.id,
      metadata: {
        fulfillmentId: fulfillment.id,
        recordId: salesRecordId,
        carrier: input.carrier,
        trackingNumber: input.trackingNumber,
      },
      at: ctx.at,
    });
    return readFulfillment(trx, ctx.organizationId, salesRecordId, fulfillment.id);
  });
}

/**
 * `POST …/handoff`: a `READY` package with ACTIVE postage and no open
 * cancellation leaves in the carrier's custody: `SHIPPED`, its allocation
 * becomes shipped, its stock is consumed once, the notification decision is
 * recorded (ORDER_SHIPPED queued when asked). VOID_PENDING postage is 409
 * HANDOFF_BLOCKED `VOID_PENDING`, none current `POSTAGE_RETIRED`; another
 * state, a second handoff included, 409 INVALID_STATE_TRANSITION. With the
 * optional key the same request replays the recorded answer and consumes
 * nothing again. Audits `fulfillment.handed_off`.
 */
export async function handOffFulfillment(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  input: HandOffFulfillmentInput,
  idempotencyKey?: string,
): Promise<KeyedOutcome<FulfillmentRead>> {
  const salesRecordId = await resolveRecordId(db, ctx.organizationId, input.recordId);
  const run = (trx: Kysely<Database>) => handOff(trx, ctx, salesRecordId, input);
  if (idempotencyKey === undefined) return { body: await inTransaction(db, run), replayed: false };
  const { recordId: _recordId, fulfillmentId, ...body } = input;
  const outcome = await withIdempotency(
    db,
    {
      organizationId: ctx.organizationId,
      operation: HANDOFF_OPERATION,
      key: idempotencyKey,
      intent: { params: { recordId: salesRecordId, fulfillmentId }, body },
      retention: 'money',
      now: ctx.at,
    },
    async (trx) => ({ status: 200, body: await run(trx) }),
  );
  return { body: outcome.body, replayed: outcome.replayed };
}

async function handOff(
  trx: Kysely<Database>,
  ctx: FulfillmentContext,
  salesRecordId: string,
  input: HandOffFulfillmentInput,
): Promise<FulfillmentRead> {
  const { target, fulfillment } = await lockFulfillment(trx, ctx, salesRecordId, input.fulfillmentId);
  const shippedAt = assertPastInstant(input.shippedAt, {
    path: 'shippedAt',
    now: ctx.at,
    notBefore: target.record.created_at,
    notBeforeWhat: 'the order was created',
  });
  if (fulfillment.status !== 'READY') throw invalidMove(fulfillment.status, 'SHIPPED');
  const current = currentPostage(await postagesOf(trx, fulfillment));
  if (current === undefined)
    throw new AppError('HANDOFF_BLOCKED', 'The fulfillment has no current postage', {
      reason: 'POSTAGE_RETIRED',
    });
  if (current.status === 'VOID_PENDING')
    throw new AppError('HANDOFF_BLOCKED', 'A void of the postage is pending', { reason: 'VOID_PENDING' });
  assertFulfillable(target);

  const lines = await linesOf(trx, fulfillment);
  await lockRequestedLines(
    trx,
    ctx.organizationId,
    salesRecordId,
    lines.map((line) => ({ lineId: line.line_id, quantity: line.quantity })),
  );
  const shipped = await trx
    .updateTable('fulfillments')
    .set((eb) => ({
      status: 'SHIPPED',
      notification_decision: input.notifyCustomer ? 'SEND' : 'SUPPRESS',
      notification_decided_at: ctx.at,
      notification_decided_by: ctx.actor.userId,
      notification_email_queued: input.notifyCustomer,
      inventory_consumed_at: ctx.at,
      shipped_at: shippedAt,
      updated_at: ctx.at,
      version: eb('version', '+', 1),
    }))
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', fulfillment.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await changeCounters(
    trx,
    target,
    lines.map((line) => ({ lineId: line.line_id, shipped: line.quantity, allocated: -line.quantity })),
    ctx.at,
  );
  await completeShipment(trx, ctx, target, shipped, lines, input.notifyCustomer);
  await recordAudit(trx, {
    organizationId: ctx.organizationId,
    actor: ctx.actor,
    action: 'fulfillment.handed_off',
    targetType: 'fulfillment',
    targetId: fulfillment.id,
    metadata: {
      fulfillmentId: fulfillment.id,
      recordId: salesRecordId,
      postageId: current.id,
      notifyCustomer: input.notifyCustomer,
    },
    at: ctx.at,
  });
  return readFulfillment(trx, ctx.organizationId, salesRecordId, fulfillment.id);
}

/**
 * `POST …/deliver`: `SHIPPED` → `DELIVERED` at `deliveredAt` (default now;
 * not future, not before `shippedAt`: 400). Any other state is 409
 * INVALID_STATE_TRANSITION. Counters and `fulfillmentStatus` stay (delivered
 * units are shipped units); no email. Audits `fulfillment.delivered`.
 */
export async function deliverFulfillment(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  input: DeliverFulfillmentInput,
): Promise<FulfillmentRead> {
  const salesRecordId = await resolveRecordId(db, ctx.organizationId, input.recordId);
  return inTransaction(db, async (trx) => {
    const fulfillment = await findFulfillment(
      trx,
      ctx.organizationId,
      salesRecordId,
      input.fulfillmentId,
      'update',
    );
    if (fulfillment.status !== 'SHIPPED') throw invalidMove(fulfillment.status, 'DELIVERED');
    const deliveredAt = assertPastInstant(input.deliveredAt, {
      path: 'deliveredAt',
      now: ctx.at,
      notBefore: fulfillment.shipped_at,
      notBeforeWhat: 'the shipment left',
    });
    await trx
      .updateTable('fulfillments')
      .set((eb) => ({
        status: 'DELIVERED',
        delivered_at: deliveredAt,
        updated_at: ctx.at,
        version: eb('version', '+', 1),
      }))
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', fulfillment.id)
      .execute();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'fulfillment.delivered',
      targetType: 'fulfillment',
      targetId: fulfillment.id,
      metadata: {
        fulfillmentId: fulfillment.id,
        recordId: salesRecordId,
        deliveredAt: deliveredAt.toISOString(),
      },
      at: ctx.at,
    });
    return readFulfillment(trx, ctx.organizationId, salesRecordId, fulfillment.id);
  });
}

/**
 * `POST …/cancel`, the canonical cancellation: `PLANNED`, or `READY`
 * without current paid native postage, → `CANCELLED`; its allocation is
 * released, once (a second cancel finds it `CANCELLED`: 409
 * INVALID_STATE_TRANSITION). `READY` with current paid native postage is 409
 * PAID_POSTAGE_ACTIVE. Allowed whatever the order's state; restores no stock
 * (none was consumed). Audits `fulfillment.cancelled`.
 */
export async function cancelFulfillment(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  input: CancelFulfillmentInput,
): Promise<FulfillmentRead> {
  const salesRecordId = await resolveRecordId(db, ctx.organizationId, input.recordId);
  return inTransaction(db, async (trx) => {
    const { target, fulfillment } = await lockFulfillment(trx, ctx, salesRecordId, input.fulfillmentId);
    if (fulfillment.status !== 'PLANNED' && fulfillment.status !== 'READY')
      throw invalidMove(fulfillment.status, 'CANCELLED');
    if (fulfillment.status === 'READY' && isPaidNative(currentPostage(await postagesOf(trx, fulfillment))))
      throw new AppError('PAID_POSTAGE_ACTIVE', 'The fulfillment has current paid postage; void it first');
    const lines = await linesOf(trx, fulfillment);
    await lockRequestedLines(
      trx,
      ctx.organizationId,
      salesRecordId,
      lines.map((line) => ({ lineId: line.line_id, quantity: line.quantity })),
    );
    await trx
      .updateTable('fulfillments')
      .set((eb) => ({
        status: 'CANCELLED',
        cancelled_at: ctx.at,
        cancel_reason: input.reason ?? null,
        updated_at: ctx.at,
        version: eb('version', '+', 1),
      }))
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', fulfillment.id)
      .execute();
    await changeCounters(
      trx,
      target,
      lines.map((line) => ({ lineId: line.line_id, shipped: 0, allocated: -line.quantity })),
      ctx.at,
    );
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'fulfillment.cancelled',
      targetType: 'fulfillment',
      targetId: fulfillment.id,
      metadata: {
        fulfillmentId: fulfillment.id,
        recordId: salesRecordId,
        fromStatus: fulfillment.status,
        reason: input.reason ?? null,
      },
      at: ctx.at,
    });
    return readFulfillment(trx, ctx.organizationId, salesRecordId, fulfillment.id);
  });
}
