import type { Database } from '@commerce/db';
import type { ShipmentRead } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { trackingOf } from './fulfillment-read.ts';

/**
 * The customer-visible shipments of some sales records: their
 * `SHIPPED` and `DELIVERED` fulfillments, oldest first, with the tracking the
 * customer may see and the units shipped; never postage, charges, reasons,
 * plans or cancelled rows. Three queries whatever the number of records.
 */
export async function shipmentsOfRecords(
  db: Kysely<Database>,
  organizationId: string,
  salesRecordIds: readonly string[],
): Promise<Map<string, ShipmentRead[]>> {
  const byRecord = new Map<string, ShipmentRead[]>(salesRecordIds.map((id) => [id, []]));
  if (salesRecordIds.length === 0) return byRecord;
  const rows = await db
    .selectFrom('fulfillments')
    .select([
      'id',
      'sales_record_id',
      'status',
      'tracking_carrier',
      'tracking_number',
      'tracking_url',
      'tracking_repaired_at',
      'shipped_at',
      'delivered_at',
    ])
    .where('organization_id', '=', organizationId)
    .where('sales_record_id', 'in', [...byRecord.keys()])
    .where('status', 'in', ['SHIPPED', 'DELIVERED'])
    .orderBy('sales_record_id')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  if (rows.length === 0) return byRecord;
  const ids = rows.map((row) => row.id);
  const [lines, postages] = await Promise.all([
    db
      .selectFrom('fulfillment_lines')
      .select(['fulfillment_id', 'name', 'quantity'])
      .where('organization_id', '=', organizationId)
      .where('fulfillment_id', 'in', ids)
      .orderBy('fulfillment_id')
      .orderBy('position')
      .execute(),
    db
      .selectFrom('fulfillment_postages')
      .select(['fulfillment_id', 'carrier', 'tracking_number', 'tracking_url'])
      .where('organization_id', '=', organizationId)
      .where('fulfillment_id', 'in', ids)
      .where('status', 'in', ['ACTIVE', 'VOID_PENDING'])
      .execute(),
  ]);
  for (const row of rows) {
    const postage = postages.find((entry) => entry.fulfillment_id === row.id);
    const tracking = trackingOf(row, postage);
    byRecord.get(row.sales_record_id)!.push({
      status: row.status as ShipmentRead['status'],
      carrier: tracking.carrier,
      trackingNumber: tracking.trackingNumber,
      trackingUrl: tracking.trackingUrl,
      shippedAt: new Date(row.shipped_at!).toISOString(),
      deliveredAt: row.delivered_at === null ? null : new Date(row.delivered_at).toISOString(),
      lines: lines
        .filter((line) => line.fulfillment_id === row.id)
        .map((line) => ({ name: line.name, quantity: line.quantity })),
    });
  }
  return byRecord;
}
