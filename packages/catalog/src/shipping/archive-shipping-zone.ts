import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ShippingWriteContext, ShippingZoneRead } from './schemas.ts';
import { findShippingZone, readShippingZone } from './shipping-read.ts';

/**
 * Archives a zone: it leaves the public list at once, with its rates (which
 * keep their own state, so a restore brings back exactly the active ones).
 * Idempotent: archiving an archived zone answers it unchanged and records nothing.
 */
export function archiveShippingZone(
  db: Kysely<Database>,
  ctx: ShippingWriteContext,
  zoneId: string,
): Promise<ShippingZoneRead> {
  return setZoneArchived(db, ctx, zoneId, true);
}

/** Restores an archived zone; idempotent like `archiveShippingZone`. */
export function restoreShippingZone(
  db: Kysely<Database>,
  ctx: ShippingWriteContext,
  zoneId: string,
): Promise<ShippingZoneRead> {
  return setZoneArchived(db, ctx, zoneId, false);
}

async function setZoneArchived(
  db: Kysely<Database>,
  ctx: ShippingWriteContext,
  zoneId: string,
  archive: boolean,
): Promise<ShippingZoneRead> {
  return inTransaction(db, async (trx) => {
    // The state test is in the update itself, so concurrent calls change (and audit) it once.
    const changed = await trx
      .updateTable('shipping_zones')
      .set({ archived_at: archive ? ctx.at : null, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', zoneId)
      .where('archived_at', archive ? 'is' : 'is not', null)
      .returningAll()
      .executeTakeFirst();
    if (!changed)
      return readShippingZone(
        trx,
        ctx.organizationId,
        await findShippingZone(trx, ctx.organizationId, zoneId),
      );

    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: archive ? 'shipping_zone.archived' : 'shipping_zone.restored',
      targetType: 'shipping_zone',
      targetId: changed.id,
      at: ctx.at,
    });
    return readShippingZone(trx, ctx.organizationId, changed);
  });
}
