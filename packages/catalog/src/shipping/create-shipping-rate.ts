import { AppError, newId } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { CreateShippingRateInput, ShippingRateRead, ShippingWriteContext } from './schemas.ts';
import { findShippingZone, toShippingRateRead } from './shipping-read.ts';

/**
 * Adds a flat rate to a zone, audited as `shipping_rate.created`. A rate
 * cannot be added to an archived zone (409 INVALID_STATE_TRANSITION): restore
 * the zone first. The zone is read under a share lock, so a concurrent
 * archive either waits for the rate or is seen by it.
 */
export async function createShippingRate(
  db: Kysely<Database>,
  ctx: ShippingWriteContext,
  zoneId: string,
  input: CreateShippingRateInput,
): Promise<ShippingRateRead> {
  return inTransaction(db, async (trx) => {
    const zone = await findShippingZone(trx, ctx.organizationId, zoneId, 'share');
    if (zone.archived_at !== null) {
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        'The shipping zone is archived; restore it to add rates',
      );
    }
    const rate = await trx
      .insertInto('shipping_rates')
      .values({
        organization_id: ctx.organizationId,
        id: newId('shr', ctx.at),
        zone_id: zone.id,
        name: input.name,
        price_in_cents: input.priceInCents,
        minimum_subtotal_in_cents: input.minimumSubtotalInCents ?? null,
        estimated_delivery: input.estimatedDelivery ?? null,
        sort_order: input.sortOrder ?? 0,
        created_at: ctx.at,
        updated_at: ctx.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'shipping_rate.created',
      targetType: 'shipping_rate',
      targetId: rate.id,
      metadata: { zoneId: zone.id },
      at: ctx.at,
    });
    return toShippingRateRead(rate);
  });
}
