import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ShippingWriteContext, ShippingZoneChanges, ShippingZoneRead } from './schemas.ts';
import { findShippingZone, readShippingZone } from './shipping-read.ts';

/**
 * Applies a partial change to a zone under its row lock; `countries`, when
 * sent, replaces the list wholesale. Only fields whose value changes are
 * written and audited (`shipping_zone.updated` with `{ fields }`); a change
 * that changes nothing writes nothing. Archived zones can be edited.
 */
export async function updateShippingZone(
  db: Kysely<Database>,
  ctx: ShippingWriteContext,
  zoneId: string,
  changes: ShippingZoneChanges,
): Promise<ShippingZoneRead> {
  return inTransaction(db, async (trx) => {
    const zone = await findShippingZone(trx, ctx.organizationId, zoneId, 'update');
    const fields: string[] = [];
    const update: { name?: string; countries?: string; sort_order?: number } = {};
    if (changes.name !== undefined && changes.name !== zone.name) {
      fields.push('name');
      update.name = changes.name;
    }
    if (changes.countries !== undefined && !sameList(changes.countries, zone.countries)) {
      fields.push('countries');
      update.countries = JSON.stringify(changes.countries);
    }
    if (changes.sortOrder !== undefined && changes.sortOrder !== zone.sort_order) {
      fields.push('sortOrder');
      update.sort_order = changes.sortOrder;
    }
    if (fields.length === 0) return readShippingZone(trx, ctx.organizationId, zone);

    const updated = await trx
      .updateTable('shipping_zones')
      .set({ ...update, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', zone.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'shipping_zone.updated',
      targetType: 'shipping_zone',
      targetId: zone.id,
      metadata: { fields },
      at: ctx.at,
    });
    return readShippingZone(trx, ctx.organizationId, updated);
  });
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
