import { AppError, canonicalJson } from '@commerce/core';
import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import type { Kysely, UpdateObject } from 'kysely';
import type { ItemWriteContext } from '../items/context.ts';
import { changedShippingDimensions } from '../items/shipping-dimensions.ts';
import { queueBackInStockEmails } from '../stock-notifications/back-in-stock.ts';
import { emitLowStockCrossings } from './low-stock.ts';

import { SALE_ABOVE_PRICE, type UpdateVariantChanges, type VariantRead } from './schemas.ts';
import { findVariantRow, skuTaken, toVariantRead, variantNotFound } from './variant-read.ts';

/**
 * Changes a variant (stock, prices, options …) under its row lock. Only fields
 * whose value changes are written and audited (`variant.updated` with
 * `{ itemId, fields }`); a patch that changes nothing writes nothing. The sale
 * price must not end above the price. A SKU of another variant is
 * `SKU_TAKEN`. Stock going from 0 to a positive quantity queues the
 * BACK_IN_STOCK emails of the variant's subscriptions in the same transaction;
 * stock set from above the low-stock threshold to at or under it queues `stock.low`
 * (one more statement, only when a patch lowers the stock of a tracked variant).
 */
export async function updateVariant(
  db: Kysely<Database>,
  ctx: ItemWriteContext & { email: CustomerEmailConfig },
  itemId: string,
  variantId: string,
  changes: UpdateVariantChanges,
): Promise<VariantRead> {
  try {
    return await inTransaction(db, async (trx) => {
      const variant = await findVariantRow(trx, ctx.organizationId, itemId, variantId, { forUpdate: true });
      if (!variant) throw variantNotFound();

      const price = changes.priceInCents !== undefined ? changes.priceInCents : variant.price_in_cents;
      const salePrice =
        changes.salePriceInCents !== undefined ? changes.salePriceInCents : variant.sale_price_in_cents;
      if (price !== null && salePrice !== null && salePrice > price) {
        throw AppError.validation([{ path: 'salePriceInCents', message: SALE_ABOVE_PRICE }]);
      }

      const set: UpdateObject<Database, 'variants'> = {};
      const fields: string[] = [];
      const changed = <T>(field: string, next: T | undefined, current: T): next is T => {
        if (next === undefined || next === current) return false;
        fields.push(field);
        return true;
      };
      if (changed('sku', changes.sku, variant.sku)) set.sku = changes.sku;
      if (changed('name', changes.name, variant.name)) set.name = changes.name;
      if (changed('priceInCents', changes.priceInCents, variant.price_in_cents))
        set.price_in_cents = changes.priceInCents;
      if (changed('salePriceInCents', changes.salePriceInCents, variant.sale_price_in_cents))
        set.sale_price_in_cents = changes.salePriceInCents;
      if (changed('inventoryQuantity', changes.inventoryQuantity, variant.inventory_quantity))
        set.inventory_quantity = changes.inventoryQuantity;
      if (changed('sortOrder', changes.sortOrder, variant.sort_order)) set.sort_order = changes.sortOrder;
      if (
        changes.options !== undefined &&
        canonicalJson(changes.options) !== canonicalJson(variant.options)
      ) {
        fields.push('options');
        set.options = JSON.stringify(changes.options);
      }
      const dimensions = changedShippingDimensions(changes, variant);
      Object.assign(set, dimensions.set);
      fields.push(...dimensions.fields);
      if (fields.length === 0) return toVariantRead(variant);

      const updated = await trx
        .updateTable('variants')
        .set({ ...set, updated_at: ctx.at })
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', variantId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'variant.updated',
        targetType: 'variant',
        targetId: variantId,
        metadata: { itemId, fields },
        at: ctx.at,
      });
      const restocked =
        variant.inventory_quantity === 0 &&
        updated.inventory_quantity !== null &&
        updated.inventory_quantity > 0;
      if (restocked && updated.archived_at === null) {
        await queueBackInStockEmails(trx, {
          organizationId: ctx.organizationId,
          itemId,
          variantId,
          at: ctx.at,
          email: ctx.email,
        });
      }
      if (
        updated.archived_at === null &&
        variant.inventory_quantity !== null &&
        updated.inventory_quantity !== null &&
        updated.inventory_quantity < variant.inventory_quantity
      ) {
        await emitLowStockCrossings(trx, { organizationId: ctx.organizationId, at: ctx.at }, [
          { variantId, before: variant.inventory_quantity, after: updated.inventory_quantity },
        ]);
      }
      return toVariantRead(updated);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'variants_sku_key')) throw skuTaken();
    throw error;
  }
}
