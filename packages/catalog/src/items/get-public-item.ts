import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { decorateItems } from '../decorations/decorate-items.ts';
import { itemNotFound } from './get-item.ts';
import { ITEM_COLUMNS, type PublicItemDetailRead } from './item-read.ts';

/**
 * A storefront item by slug with its non-archived variants: `ACTIVE` and
 * unarchived only; unknown, draft or archived is 404.
 */
export async function getPublicItem(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
): Promise<PublicItemDetailRead> {
  const item = await db
    .selectFrom('items')
    .select(ITEM_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .where('status', '=', 'ACTIVE')
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!item) throw itemNotFound();
  const [[read], variants] = await Promise.all([
    decorateItems(db, organizationId, [item], { publicOnly: true }),
    db
      .selectFrom('variants')
      .select(['id', 'sku', 'name', 'options', 'price_in_cents', 'sale_price_in_cents', 'inventory_quantity'])
      .where('organization_id', '=', organizationId)
      .where('item_id', '=', item.id)
      .where('archived_at', 'is', null)
      .orderBy('sort_order')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  return {
    ...read!,
    variants: variants.map((variant) => ({
      id: variant.id,
      sku: variant.sku,
      name: variant.name,
      options: variant.options,
      priceInCents: variant.price_in_cents,
      salePriceInCents: variant.sale_price_in_cents,
      inStock: variant.inventory_quantity === null || variant.inventory_quantity > 0,
    })),
  };
}
