import { type Database, inTransaction, recordAudit } from '@commerce/db';
import { enqueueWebhookEvent } from '@commerce/notifications/webhooks';
import { resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { findFulfillment, readFulfillment } from './fulfillment-read.ts';
import { invalidMove } from './fulfillment-state.ts';
import type { DeliverFulfillmentInput, FulfillmentContext, FulfillmentRead } from './schemas.ts';
import { assertPastInstant } from './ship-fulfillment.ts';

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
    await enqueueWebhookEvent(trx, {
      organizationId: ctx.organizationId,
      type: 'fulfillment.delivered',
      objectId: fulfillment.id,
      data: () => readFulfillment(trx, ctx.organizationId, fulfillment.sales_record_id, fulfillment.id),
      at: ctx.at,
    });
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
