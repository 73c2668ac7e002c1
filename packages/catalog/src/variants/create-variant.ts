import { newId } from '@commerce/core';
import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ItemWriteContext } from '../items/context.ts';

import { findItemRow, itemNotFound } from '../items/get-item.ts';
import { shippingDimensionValues } from '../items/shipping-dimensions.ts';
import type { CreateVariantInput, VariantRead } from './schemas.ts';
import { skuTaken, toVariantRead } from './variant-read.ts';

/**
 * Adds a variant to an item of the organization (archived items included, so
 * one can be prepared before a restore). A SKU already used by a variant of
 * the organization is `SKU_TAKEN`, decided by the partial unique index
 * `variants_sku_key`. Audited as `variant.created`.
 */
export async function createVariant(
  db: Kysely<Database>,
  ctx: ItemWriteContext,
  itemId: string,
  input: CreateVariantInput,
): Promise<VariantRead> {
  try {
    return await inTransaction(db, async (trx) => {
      const item = await findItemRow(trx, ctx.organizationId, itemId);
      if (!item) throw itemNotFound();
      const variant = await trx
        .insertInto('variants')
        .values({
          organization_id: ctx.organizationId,
          id: newId('var', ctx.at),
          item_id: itemId,
          sku: input.sku ?? null,
          name: input.name,
          options: JSON.stringify(input.options ?? {}),
          price_in_cents: input.priceInCents ?? null,
          sale_price_in_cents: input.salePriceInCents ?? null,
          inventory_quantity: input.inventoryQuantity ?? null,
          sort_order: input.sortOrder ?? 0,
          archived_at: null,
          created_at: ctx.at,
          updated_at: ctx.at,
          ...shippingDimensionValues(input),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'variant.created',
        targetType: 'variant',
        targetId: variant.id,
        metadata: { itemId, sku: variant.sku },
        at: ctx.at,
      });
      return toVariantRead(variant);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'variants_sku_key')) throw skuTaken();
    throw error;
  }
}
