import { AppError } from '@commerce/core';
import { type Database, recordAudit } from '@commerce/db';
import { lockRecord, resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { findFulfillment, readFulfillment } from '../fulfillments/fulfillment-read.ts';
import { currentPostage, invalidMove, postagesOf } from '../fulfillments/fulfillment-state.ts';
import type { FulfillmentRead } from '../fulfillments/schemas.ts';
import type { RetiredPostageAcknowledgementInput, ShipmentCancellationContext } from './schemas.ts';

/**
 * `POST …/fulfillments/:fulfillmentId/retired-postage-acknowledgement`
 * Owner or Admin, no provider call: the `READY` fulfillment's
 * current `EXTERNAL` or `LEGACY` postage in `ACTIVE` becomes `RETIRED`, with
 * `retirementEvidence { source: MERCHANT_ACKNOWLEDGEMENT, actorUserId,
 * reason, at }`; the fulfillment stays `READY` (handoff then
 * `POSTAGE_RETIRED` until new postage). `NATIVE` postage, or none, is 409
 * POSTAGE_NOT_RETIRABLE; a fulfillment not `READY` 409
 * INVALID_STATE_TRANSITION. Audited `shipping_label.retirement_acknowledged`.
 */
export async function acknowledgeRetiredPostage(
  db: Kysely<Database>,
  ctx: ShipmentCancellationContext,
  input: RetiredPostageAcknowledgementInput,
): Promise<FulfillmentRead> {
  const { organizationId } = ctx;
  const salesRecordId = await resolveRecordId(db, organizationId, input.orderId);
  return db.transaction().execute(async (trx) => {
    const at = ctx.clock.now();
    await lockRecord(trx, organizationId, salesRecordId);
    const fulfillment = await findFulfillment(
      trx,
      organizationId,
      salesRecordId,
      input.fulfillmentId,
      'update',
    );
    const postage = currentPostage(await postagesOf(trx, fulfillment));
    if (postage === undefined || postage.source === 'NATIVE' || postage.status !== 'ACTIVE')
      throw new AppError(
        'POSTAGE_NOT_RETIRABLE',
        'Only current external or legacy postage can be retired by acknowledgement',
        { source: postage?.source ?? null },
      );
    if (fulfillment.status !== 'READY') throw invalidMove(fulfillment.status, 'READY');
    const evidence = {
      source: 'MERCHANT_ACKNOWLEDGEMENT',
      actorUserId: ctx.actor.userId,
      reason: input.reason,
      at: at.toISOString(),
    };
    await trx
      .updateTable('fulfillment_postages')
      .set({ status: 'RETIRED', retired_at: at, retirement_evidence: JSON.stringify(evidence) })
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
      action: 'shipping_label.retirement_acknowledged',
      targetType: 'fulfillment',
      targetId: fulfillment.id,
      metadata: {
        fulfillmentId: fulfillment.id,
        recordId: salesRecordId,
        postageId: postage.id,
        source: postage.source,
        reason: input.reason,
      },
      at,
    });
    return readFulfillment(trx, organizationId, salesRecordId, fulfillment.id);
  });
}
