import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ItemWriteContext } from '../items/context.ts';

import type { VariantRead } from './schemas.ts';
import { findVariantRow, toVariantRead, variantNotFound } from './variant-read.ts';

/**
 * Archives (`archived` true) or restores a variant. Idempotent: a variant
 * already in the asked state is answered as it is and nothing is recorded.
 * An archived variant leaves the item's `salePriceInCents` decoration and the
 * `archived=false` list; its SKU stays taken. Audited as `variant.archived` /
 * `variant.restored`.
 */
export async function setVariantArchived(
  db: Kysely<Database>,
  ctx: ItemWriteContext,
  itemId: string,
  variantId: string,
  archived: boolean,
): Promise<VariantRead> {
  return inTransaction(db, async (trx) => {
    const variant = await findVariantRow(trx, ctx.organizationId, itemId, variantId, { forUpdate: true });
    if (!variant) throw variantNotFound();
    if ((variant.archived_at !== null) === archived) return toVariantRead(variant);

    const updated = await trx
      .updateTable('variants')
      .set({ archived_at: archived ? ctx.at : null, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', variantId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: archived ? 'variant.archived' : 'variant.restored',
      targetType: 'variant',
      targetId: variantId,
      metadata: { itemId },
      at: ctx.at,
    });
    return toVariantRead(updated);
  });
}

export const archiveVariant = (
  db: Kysely<Database>,
  ctx: ItemWriteContext,
  itemId: string,
  variantId: string,
) => setVariantArchived(db, ctx, itemId, variantId, true);

export const restoreVariant = (
  db: Kysely<Database>,
  ctx: ItemWriteContext,
  itemId: string,
  variantId: string,
) => setVariantArchived(db, ctx, itemId, variantId, false);
