import { AppError } from '@commerce/core';
import { type Database, recordAudit } from '@commerce/db';
import { lockRecord, resolveRecordId } from '@commerce/orders';
import { type Kysely, sql } from 'kysely';
import { findFulfillment, readFulfillment } from '../fulfillments/fulfillment-read.ts';
import type { FulfillmentRead } from '../fulfillments/schemas.ts';
import { labelSettingsOf } from '../shipping-label/label-addresses.ts';
import { closeCancellation, evidenceOf } from './close-cancellation.ts';
import type { CarrierCheckInput, ShipmentCancellationContext } from './schemas.ts';

/** An exhausted cancellation is checked at most this often. */
export const CARRIER_CHECK_INTERVAL_MS = 60_000;

/**
 * `POST …/cancel-prepared-shipment/carrier-check`, Owner or Admin:
 * for the fulfillment's `EXHAUSTED` cancellation, once a minute at most, else
 * 409 CARRIER_CHECK_NOT_ALLOWED `{ status, allowedAfter }`. The check is
 * recorded first (compare-and-set on the minute), then one `readLabel`, never
 * `requestVoid`: `VOIDED` is evidence (`CARRIER_CHECK`) and closes it;
 * `ACTIVE` or `VOID_REJECTED` closes it `REJECTED` with the label `ACTIVE`;
 * still pending appends to `checks[]`; a failed read is 503
 * PROVIDER_UNAVAILABLE. Audited `shipping_label.carrier_checked` (`result`).
 */
export async function checkCarrierForCancellation(
  db: Kysely<Database>,
  ctx: ShipmentCancellationContext,
  input: CarrierCheckInput,
): Promise<FulfillmentRead> {
  const { organizationId } = ctx;
  const salesRecordId = await resolveRecordId(db, organizationId, input.orderId);
  const fulfillment = await findFulfillment(db, organizationId, salesRecordId, input.fulfillmentId);
  const now = ctx.clock.now();
  const claimed = await db
    .updateTable('shipment_cancellations')
    .set({ last_checked_at: now, updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('fulfillment_id', '=', fulfillment.id)
    .where('status', '=', 'EXHAUSTED')
    .where((eb) =>
      eb.or([
        eb('last_checked_at', 'is', null),
        eb('last_checked_at', '<=', new Date(now.getTime() - CARRIER_CHECK_INTERVAL_MS)),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  if (!claimed) {
    const latest = await db
      .selectFrom('shipment_cancellations')
      .select(['status', 'last_checked_at'])
      .where('organization_id', '=', organizationId)
      .where('fulfillment_id', '=', fulfillment.id)
      .orderBy('requested_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const allowedAfter =
      latest?.status === 'EXHAUSTED' && latest.last_checked_at !== null
        ? new Date(new Date(latest.last_checked_at).getTime() + CARRIER_CHECK_INTERVAL_MS).toISOString()
        : null;
    throw new AppError('CARRIER_CHECK_NOT_ALLOWED', undefined, {
      status: latest?.status ?? null,
      allowedAfter,
    });
  }

  const postage = await db
    .selectFrom('fulfillment_postages')
    .select('tracking_number')
    .where('organization_id', '=', organizationId)
    .where('id', '=', claimed.postage_id)
    .executeTakeFirstOrThrow();
  const { currency } = await labelSettingsOf(db, organizationId);
  const state = await ctx.carrier.readLabel(
    { organizationId, currency },
    { trackingNumber: postage.tracking_number },
  );

  await db.transaction().execute(async (trx) => {
    const at = ctx.clock.now();
    await lockRecord(trx, organizationId, salesRecordId);
    await findFulfillment(trx, organizationId, salesRecordId, fulfillment.id, 'update');
    const closeCtx = { organizationId, actor: ctx.actor, at };
    let result: string;
    if (state.kind !== 'OK') result = 'READ_FAILED';
    else {
      const evidence = evidenceOf(state.value, 'CARRIER_CHECK', postage.tracking_number, at);
      if (evidence) {
        await closeCancellation(trx, closeCtx, claimed, { kind: 'VOIDED', evidence }, ['EXHAUSTED']);
        result = 'VOIDED';
      } else if (state.value.status === 'ACTIVE' || state.value.status === 'VOID_REJECTED') {
        await closeCancellation(trx, closeCtx, claimed, { kind: 'REJECTED' }, ['EXHAUSTED']);
        result = 'REJECTED';
      } else {
        const check = {
          at: at.toISOString(),
          providerStatus: state.value.rawStatus,
          result: 'STILL_PENDING',
        };
        await trx
          .updateTable('shipment_cancellations')
          .set({ checks: sql`checks || ${JSON.stringify([check])}::jsonb`, updated_at: at })
          .where('organization_id', '=', organizationId)
          .where('id', '=', claimed.id)
          .execute();
        result = 'STILL_PENDING';
      }
    }
    await recordAudit(trx, {
      organizationId,
      actor: ctx.actor,
      action: 'shipping_label.carrier_checked',
      targetType: 'fulfillment',
      targetId: fulfillment.id,
      metadata: {
        fulfillmentId: fulfillment.id,
        recordId: salesRecordId,
        cancellationId: claimed.id,
        postageId: claimed.postage_id,
        result,
      },
      at,
    });
  });
  if (state.kind !== 'OK')
    throw new AppError('PROVIDER_UNAVAILABLE', 'The carrier could not be read; check again in a minute', {
      cancellationId: claimed.id,
    });
  return readFulfillment(db, organizationId, salesRecordId, fulfillment.id);
}
