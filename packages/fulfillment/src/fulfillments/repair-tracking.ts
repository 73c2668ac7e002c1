import { AppError } from '@commerce/core';
import { type Database, type Fulfillment, inTransaction, recordAudit } from '@commerce/db';
import { lockRecord, resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { readFulfillment, trackingOf } from './fulfillment-read.ts';
import type { FulfillmentContext, FulfillmentRead, RepairTrackingInput } from './schemas.ts';

const TRACKING_FIELDS = ['carrier', 'trackingNumber', 'trackingUrl'] as const;

/**
 * The record's `SHIPPED` and `DELIVERED` fulfillments, locked, whose tracking
 * is not from a native label: origin `DIRECT` or `LEGACY`, or `PLANNED` whose
 * current postage is `EXTERNAL`. Each with that postage, if any.
 */
async function compatibleRows(trx: Kysely<Database>, organizationId: string, salesRecordId: string) {
  const shipped = await trx
    .selectFrom('fulfillments')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('sales_record_id', '=', salesRecordId)
    .where('status', 'in', ['SHIPPED', 'DELIVERED'])
    .orderBy('id')
    .forUpdate()
    .execute();
  if (shipped.length === 0) return [];
  const postages = await trx
    .selectFrom('fulfillment_postages')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where(
      'fulfillment_id',
      'in',
      shipped.map((row) => row.id),
    )
    .where('status', 'in', ['ACTIVE', 'VOID_PENDING'])
    .execute();
  return shipped
    .map((row) => ({ row, postage: postages.find((postage) => postage.fulfillment_id === row.id) }))
    .filter(
      ({ row, postage }) =>
        row.origin === 'DIRECT' ||
        row.origin === 'LEGACY' ||
        (row.origin === 'PLANNED' && postage?.source === 'EXTERNAL'),
    );
}

/**
 * `PATCH /merchant/orders/{id}/tracking`: edits the tracking of the
 * order's one shipped fulfillment whose tracking is not a native label's, and
 * nothing else: no state, counter, stock, postage or outbox row changes, no
 * mail. None or several such rows is 409 TRACKING_HISTORY_AMBIGUOUS
 * (`details.compatibleCount`): it never picks one. `expectedFulfillmentId`
 * naming another row is 409 STALE_STATE. The result keeps a carrier and a
 * number together (or neither, and then no URL): else 400 at the field.
 * The repaired tracking is stored on the fulfillment, which from then on
 * reads its own tracking, postage kept as recorded. The same values again
 * write nothing; a change bumps `version` and audits
 * `fulfillment.tracking_repaired` with the changed `fields`.
 */
export async function repairTracking(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  input: RepairTrackingInput,
): Promise<{ fulfillment: FulfillmentRead }> {
  const salesRecordId = await resolveRecordId(db, ctx.organizationId, input.id);
  return inTransaction(db, async (trx) => {
    await lockRecord(trx, ctx.organizationId, salesRecordId);
    const compatible = await compatibleRows(trx, ctx.organizationId, salesRecordId);
    if (compatible.length !== 1)
      throw new AppError(
        'TRACKING_HISTORY_AMBIGUOUS',
        compatible.length === 0
          ? 'The order has no shipment whose tracking can be repaired'
          : 'The order has several shipments whose tracking could be repaired; none is picked',
        { compatibleCount: compatible.length },
      );
    const { row, postage } = compatible[0]!;
    if (input.expectedFulfillmentId !== undefined && input.expectedFulfillmentId !== row.id)
      throw new AppError('STALE_STATE', 'The repairable shipment is another fulfillment', {
        fulfillmentId: row.id,
      });
    const before = trackingOf(row, postage);
    const after = {
      carrier: input.carrier === undefined ? before.carrier : input.carrier,
      trackingNumber: input.trackingNumber === undefined ? before.trackingNumber : input.trackingNumber,
      trackingUrl: input.trackingUrl === undefined ? before.trackingUrl : input.trackingUrl,
    };
    assertCoherent(after);
    const fields = TRACKING_FIELDS.filter((field) => before[field] !== after[field]);
    if (fields.length > 0) await applyRepair(trx, ctx, row, after, fields);
    return { fulfillment: await readFulfillment(trx, ctx.organizationId, salesRecordId, row.id) };
  });
}

/** A carrier and a number together, or neither and no URL. */
function assertCoherent(after: {
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
}) {
  const message = 'tracking needs a carrier and a tracking number together';
  if (after.carrier === null && after.trackingNumber !== null)
    throw AppError.validation([{ path: 'carrier', message }]);
  if (after.carrier !== null && after.trackingNumber === null)
    throw AppError.validation([{ path: 'trackingNumber', message }]);
  if (after.trackingNumber === null && after.trackingUrl !== null)
    throw AppError.validation([{ path: 'trackingUrl', message: 'a tracking URL needs a tracking number' }]);
}

async function applyRepair(
  trx: Kysely<Database>,
  ctx: FulfillmentContext,
  row: Fulfillment,
  after: { carrier: string | null; trackingNumber: string | null; trackingUrl: string | null },
  fields: readonly string[],
) {
  await trx
    .updateTable('fulfillments')
    .set((eb) => ({
      tracking_carrier: after.carrier,
      tracking_number: after.trackingNumber,
      tracking_url: after.trackingUrl,
      tracking_repaired_at: ctx.at,
      updated_at: ctx.at,
      version: eb('version', '+', 1),
    }))
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', row.id)
    .execute();
  await recordAudit(trx, {
    organizationId: ctx.organizationId,
    actor: ctx.actor,
    action: 'fulfillment.tracking_repaired',
    targetType: 'fulfillment',
    targetId: row.id,
    metadata: { fulfillmentId: row.id, recordId: row.sales_record_id, fields: [...fields] },
    at: ctx.at,
  });
}
