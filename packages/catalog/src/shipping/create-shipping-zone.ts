import { newId } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { CreateShippingZoneInput, ShippingWriteContext, ShippingZoneRead } from './schemas.ts';
import { toShippingZoneRead } from './shipping-read.ts';

/** Creates a zone (no rates yet), audited as `shipping_zone.created`. */
export async function createShippingZone(
  db: Kysely<Database>,
  ctx: ShippingWriteContext,
  input: CreateShippingZoneInput,
): Promise<ShippingZoneRead> {
  return inTransaction(db, async (trx) => {
    const zone = await trx
      .insertInto('shipping_zones')
      .values({
        organization_id: ctx.organizationId,
        id: newId('shz', ctx.at),
        name: input.name,
        countries: JSON.stringify(input.countries),
        sort_order: input.sortOrder ?? 0,
        created_at: ctx.at,
        updated_at: ctx.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'shipping_zone.created',
      targetType: 'shipping_zone',
      targetId: zone.id,
      at: ctx.at,
    });
    return toShippingZoneRead(zone, []);
  });
}
