import { AppError } from '@commerce/core';
import type { Database, Variant } from '@commerce/db';
import type { Kysely } from 'kysely';
import { shippingDimensionsOf } from '../items/shipping-dimensions.ts';
import type { VariantRead } from './schemas.ts';

export function toVariantRead(variant: Variant): VariantRead {
  return {
    id: variant.id,
    itemId: variant.item_id,
    sku: variant.sku,
    name: variant.name,
    options: variant.options,
    priceInCents: variant.price_in_cents,
    salePriceInCents: variant.sale_price_in_cents,
    inventoryQuantity: variant.inventory_quantity,
    sortOrder: variant.sort_order,
    archivedAt: variant.archived_at?.toISOString() ?? null,
    createdAt: variant.created_at.toISOString(),
    updatedAt: variant.updated_at.toISOString(),
    ...shippingDimensionsOf(variant),
  };
}

export const variantNotFound = () => AppError.notFound('Variant not found');

export const skuTaken = () => new AppError('SKU_TAKEN', 'Another variant of the organization has this SKU');

/** The variant row of `itemId` in the organization; a variant of another item is missing. */
export async function findVariantRow(
  db: Kysely<Database>,
  organizationId: string,
  itemId: string,
  variantId: string,
  options: { forUpdate?: boolean } = {},
): Promise<Variant | undefined> {
  return db
    .selectFrom('variants')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('item_id', '=', itemId)
    .where('id', '=', variantId)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate())
    .executeTakeFirst();
}
