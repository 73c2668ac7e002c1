import { AppError, newId } from '@commerce/core';
import {
  bindIdempotencyKey,
  type Database,
  type IdempotencyRequest,
  idempotencyKeyHash,
  recordAudit,
  recordIdempotentAnswer,
  releaseIdempotencyKey,
} from '@commerce/db';
import { lockRecord, resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { findFulfillment, readFulfillment } from '../fulfillments/fulfillment-read.ts';
import { currentPostage, invalidMove, postagesOf } from '../fulfillments/fulfillment-state.ts';
import { openCancellationOf } from '../fulfillments/open-cancellation.ts';
import type { FulfillmentRead } from '../fulfillments/schemas.ts';
import { labelSettingsOf } from '../shipping-label/label-addresses.ts';
import { closeCancellation, evidenceOf } from './close-cancellation.ts';
import type { CancelPreparedShipmentInput, ShipmentCancellationContext } from './schemas.ts';

/** The operation an idempotency key of this route is scoped to. */
export const CANCEL_PREPARED_SHIPMENT_OPERATION =
  'POST /merchant/orders/:orderId/fulfillments/:fulfillmentId/cancel-prepared-shipment';

/** When the worker reads a pending void's status, counted from the void request. */
export const VOID_POLL_OFFSETS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  24 * 3_600_000,
  72 * 3_600_000,
] as const;

export interface CancelPreparedShipmentOutcome {
  body: FulfillmentRead;
  replayed: boolean;
}

/**
 * `POST …/fulfillments/:fulfillmentId/cancel-prepared-shipment` (docs/fulfillment.md
 * "Shipment cancellations").
 *
 * An open cancellation (`PENDING` or `EXHAUSTED`) is answered as it is,
 * nothing sent. Otherwise the fulfillment must be `READY` with postage
 * `NATIVE ACTIVE`: `EXTERNAL` is 409 POSTAGE_NOT_VOIDABLE `NOT_NATIVE`,
 * `LEGACY` `NO_PROVIDER_REFERENCE`, anything else 409
 * INVALID_STATE_TRANSITION. Transaction 1 opens the cancellation `PENDING`
 * and moves the postage to `VOID_PENDING` (the fulfillment is locked, so
 * concurrent requests make one); then one `requestVoid`, outside any
 * transaction; transaction 2 closes it by compare-and-set: `VOIDED` with
 * the evidence, `REJECTED` with the label back `ACTIVE`, `UNAVAILABLE`
 * `NOT_SENT` (503 PROVIDER_UNAVAILABLE); a pending or uncertain answer is
 * left to the worker's polls. `200` with the fulfillment, still `READY`.
 *
 * With the optional key, a repeat replays the recorded answer (read now)
 * and never requests a void again; a `NOT_SENT` outcome releases the key.
 */
export async function cancelPreparedShipment(
  db: Kysely<Database>,
  ctx: ShipmentCancellationContext,
  input: CancelPreparedShipmentInput,
  idempotencyKey?: string,
): Promise<CancelPreparedShipmentOutcome> {
  const { organizationId } = ctx;
  const salesRecordId = await resolveRecordId(db, organizationId, input.orderId);
  const { orderId: _orderId, fulfillmentId, ...body } = input;
  const keyRequest = (): IdempotencyRequest | undefined =>
    idempotencyKey === undefined
      ? undefined
      : {
          organizationId,
          operation: CANCEL_PREPARED_SHIPMENT_OPERATION,
          key: idempotencyKey,
          intent: { params: { recordId: salesRecordId, fulfillmentId }, body },
          retention: 'money',
          now: ctx.clock.now(),
        };
  const keyBinding =
    idempotencyKey === undefined
      ? undefined
      : {
          organizationId,
          operation: CANCEL_PREPARED_SHIPMENT_OPERATION,
          keyHash: idempotencyKeyHash(idempotencyKey),
        };
  const read = () => readFulfillment(db, organizationId, salesRecordId, fulfillmentId);

  const opened = await db.transaction().execute(async (trx) => {
    const request = keyRequest();
    if (request) {
      const binding = await bindIdempotencyKey(trx, request);
      // Recorded, or bound by a request still between its transactions: answer the state, send nothing.
      if (binding.kind !== 'BOUND') return { kind: 'ANSWER' as const, replayed: binding.kind === 'RECORDED' };
    }
    const at = ctx.clock.now();
    await lockRecord(trx, organizationId, salesRecordId);
    const fulfillment = await findFulfillment(trx, organizationId, salesRecordId, fulfillmentId, 'update');
    const open = await openCancellationOf(trx, organizationId, fulfillment.id);
    if (open) {
      if (keyBinding) await recordAnswer(trx, keyBinding, fulfillment.id);
      return { kind: 'ANSWER' as const, replayed: false };
    }
    if (fulfillment.status !== 'READY') throw invalidMove(fulfillment.status, 'CANCELLED');
    const postage = currentPostage(await postagesOf(trx, fulfillment));
    if (postage?.source === 'EXTERNAL')
      throw new AppError('POSTAGE_NOT_VOIDABLE', 'External postage is not voided here: cancel canonically', {
        reason: 'NOT_NATIVE',
      });
    if (postage?.source === 'LEGACY')
      throw new AppError('POSTAGE_NOT_VOIDABLE', 'Legacy postage has no provider reference: acknowledge it', {
        reason: 'NO_PROVIDER_REFERENCE',
      });
    if (postage?.status !== 'ACTIVE')
      throw new AppError('INVALID_STATE_TRANSITION', 'The fulfillment has no native postage to void', {
        from: fulfillment.status,
      });
    const cancellation = await trx
      .insertInto('shipment_cancellations')
      .values({
        organization_id: organizationId,
        id: newId('scn', at),
        fulfillment_id: fulfillment.id,
        postage_id: postage.id,
        status: 'PENDING',
        reason: input.reason ?? null,
        requested_by: ctx.actor.userId,
        requested_at: at,
        void_requested_at: at,
        next_poll_at: new Date(at.getTime() + VOID_POLL_OFFSETS_MS[0]),
        evidence: null,
        last_checked_at: null,
        closed_at: null,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('fulfillment_postages')
      .set({ status: 'VOID_PENDING' })
      .where('organization_id', '=', organizationId)
      .where('id', '=', postage.id)
      .execute();
    await trx
      .updateTable('fulfillments')
      .set((eb) => ({ updated_at: at, version: eb('version', '+', 1) }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', fulfillment.id)
      .execute();
    await recordAudit(trx, {
      organizationId,
      actor: ctx.actor,
      action: 'shipping_label.void_requested',
      targetType: 'fulfillment',
      targetId: fulfillment.id,
      metadata: {
        fulfillmentId: fulfillment.id,
        recordId: salesRecordId,
        cancellationId: cancellation.id,
        postageId: postage.id,
        purchaseId: postage.purchase_id,
        reason: cancellation.reason,
      },
      at,
    });
    return { kind: 'OPENED' as const, cancellation, trackingNumber: postage.tracking_number };
  });
  if (opened.kind === 'ANSWER') return { body: await read(), replayed: opened.replayed };

  const { cancellation, trackingNumber } = opened;
  const { currency } = await labelSettingsOf(db, organizationId);
  const answer = await ctx.carrier.requestVoid({ organizationId, currency }, { trackingNumber });

  const notSent = await db.transaction().execute(async (trx) => {
    const at = ctx.clock.now();
    await lockRecord(trx, organizationId, salesRecordId);
    await findFulfillment(trx, organizationId, salesRecordId, fulfillmentId, 'update');
    const closeCtx = { organizationId, actor: ctx.actor, at };
    const from = ['PENDING'] as const;
    if (answer.kind === 'UNAVAILABLE') {
      await closeCancellation(trx, closeCtx, cancellation, { kind: 'NOT_SENT' }, from);
      if (keyBinding) await releaseIdempotencyKey(trx, keyBinding);
      return true;
    }
    if (answer.kind === 'REJECTED')
      await closeCancellation(trx, closeCtx, cancellation, { kind: 'REJECTED' }, from);
    else if (answer.kind === 'OK') {
      const evidence = evidenceOf(answer.value, 'VOID_RESPONSE', trackingNumber, at);
      if (evidence) await closeCancellation(trx, closeCtx, cancellation, { kind: 'VOIDED', evidence }, from);
      else if (answer.value.status === 'VOID_REJECTED' || answer.value.status === 'ACTIVE')
        await closeCancellation(trx, closeCtx, cancellation, { kind: 'REJECTED' }, from);
    }
    // Pending or uncertain: the worker reads the label's status from here.
    if (keyBinding) await recordAnswer(trx, keyBinding, fulfillmentId);
    return false;
  });
  if (notSent)
    throw new AppError('PROVIDER_UNAVAILABLE', 'The carrier could not be reached; the label still stands', {
      cancellationId: cancellation.id,
    });
  return { body: await read(), replayed: false };
}

/** The recorded answer names the fulfillment; a replay reads it now. */
const recordAnswer = (
  trx: Kysely<Database>,
  keyBinding: { organizationId: string; operation: string; keyHash: string },
  fulfillmentId: string,
) => recordIdempotentAnswer(trx, keyBinding, { status: 200, body: { fulfillmentId } });
