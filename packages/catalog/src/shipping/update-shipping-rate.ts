import { type Database, inTransaction, recordAudit, type ShippingRatesTable } from '@commerce/db';
import type { Kysely, Updateable } from 'kysely';
import type { ShippingRateChanges, ShippingRateRead, ShippingWriteContext } from './schemas.ts';
import { findShippingRate, toShippingRateRead } from './shipping-read.ts';

const COLUMNS = {
  name: 'name',
  priceInCents: 'price_in_cents',
  minimumSubtotalInCents: 'minimum_subtotal_in_cents',
  estimatedDelivery: 'estimated_delivery',
  sortOrder: 'sort_order',
} as const satisfies Record<keyof ShippingRateChanges, keyof ShippingRatesTable>;

/**
 * Applies a partial change to a rate under its row lock; `null` clears
 * `minimumSubtotalInCents` or `estimatedDelivery`. Only fields whose value
 * changes are written and audited (`shipping_rate.updated` with `{ zoneId, fields }`);
 * a change that changes nothing writes nothing. Archived rates, and rates of
 * archived zones, can be edited.
 */
export async function updateShippingRate(
  db: Kysely<Database>,
  ctx: ShippingWriteContext,
  rateId: string,
  changes: ShippingRateChanges,
): Promise<ShippingRateRead> {
  return inTransaction(db, async (trx) => {
    const rate = await findShippingRate(trx, ctx.organizationId, rateId, 'update');
    const fields: string[] = [];
    const update: Updateable<ShippingRatesTable> = {};
    for (const [field, column] of Object.entries(COLUMNS) as [
      keyof ShippingRateChanges,
      (typeof COLUMNS)[keyof ShippingRateChanges],
    ][]) {
      const value = changes[field];
      if (value === undefined || value === rate[column]) continue;
      fields.push(field);
      (update as Record<string, unknown>)[column] = value;
    }
    if (fields.length === 0) return toShippingRateRead(rate);

    const updated = await trx
      .updateTable('shipping_rates')
      .set({ ...update, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', rate.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'shipping_rate.updated',
      targetType: 'shipping_rate',
      targetId: rate.id,
      metadata: { zoneId: rate.zone_id, fields },
      at: ctx.at,
    });
    return toShippingRateRead(updated);
  });
}
