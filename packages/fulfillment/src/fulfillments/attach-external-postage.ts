import { AppError, newId } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import { resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { readFulfillment } from './fulfillment-read.ts';
import {
  assertNoUnsettledPurchase,
  currentPostage,
  invalidMove,
  isPaidNative,
  lockFulfillment,
  postagesOf,
} from './fulfillment-state.ts';
import { assertFulfillable } from './fulfillment-target.ts';
import type { AttachExternalPostageInput, FulfillmentContext, FulfillmentRead } from './schemas.ts';

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
    await assertNoUnsettledPurchase(trx, fulfillment);
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
