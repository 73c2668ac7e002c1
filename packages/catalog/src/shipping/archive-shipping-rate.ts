import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ShippingRateRead, ShippingWriteContext } from './schemas.ts';
import { findShippingRate, toShippingRateRead } from './shipping-read.ts';

/**
 * Archives a rate: it leaves the public list at once. Idempotent: archiving
 * an archived rate answers it unchanged and records nothing.
 */
export function archiveShippingRate(
  db: Kysely<Database>,
  ctx: ShippingWriteContext,
  rateId: string,
): Promise<ShippingRateRead> {
  return setRateArchived(db, ctx, rateId, true);
}

/**
 * Restores an archived rate; idempotent like `archiveShippingRate`. A rate of
 * an archived zone can be restored: it shows publicly once the zone is restored too.
 */
export function restoreShippingRate(
  db: Kysely<Database>,
  ctx: ShippingWriteContext,
  rateId: string,
): Promise<ShippingRateRead> {
  return setRateArchived(db, ctx, rateId, false);
}

async function setRateArchived(
  db: Kysely<Database>,
  ctx: ShippingWriteContext,
  rateId: string,
  archive: boolean,
): Promise<ShippingRateRead> {
  return inTransaction(db, async (trx) => {
    // The state test is in the update itself, so concurrent calls change (and audit) it once.
    const changed = await trx
      .updateTable('shipping_rates')
      .set({ archived_at: archive ? ctx.at : null, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', rateId)
      .where('archived_at', archive ? 'is' : 'is not', null)
      .returningAll()
      .executeTakeFirst();
    if (!changed) return toShippingRateRead(await findShippingRate(trx, ctx.organizationId, rateId));

    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: archive ? 'shipping_rate.archived' : 'shipping_rate.restored',
      targetType: 'shipping_rate',
      targetId: changed.id,
      metadata: { zoneId: changed.zone_id },
      at: ctx.at,
    });
    return toShippingRateRead(changed);
  });
}
