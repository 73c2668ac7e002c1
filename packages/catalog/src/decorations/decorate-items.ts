import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { type ItemRead, type ItemRow, publicMetafields, toItemRead } from '../items/item-read.ts';

export interface ItemDecorations {
  salePriceInCents: number | null;
  ratingAverage: number | null;
  ratingCount: number;
  collectionIds: string[];
}

const NONE: ItemDecorations = {
  salePriceInCents: null,
  ratingAverage: null,
  ratingCount: 0,
  collectionIds: [],
};

/**
 * The list decorations of a page of items, in three queries whatever the
 * page's size: the sale price from the non-archived variants (a variant's
 * sale price, else its price, the lowest of them), the rating aggregates of
 * published reviews, and the collections holding each item (in each
 * collection's own order of collections). `publicOnly` counts only ACTIVE,
 * non-archived collections, as a shopper sees them, and removes the
 * service's reserved `__` metafields.
 */
export async function decorateItems(
  db: Kysely<Database>,
  organizationId: string,
  items: ItemRow[],
  options: { publicOnly?: boolean } = {},
): Promise<ItemRead[]> {
  if (items.length === 0) return [];
  const ids = items.map((item) => item.id);
  const [prices, ratings, memberships] = await Promise.all([
    db
      .selectFrom('variants')
      .select([
        'item_id',
        sql<number | null>`min(coalesce(sale_price_in_cents, price_in_cents))`.as('sale_price'),
      ])
      .where('organization_id', '=', organizationId)
      .where('item_id', 'in', ids)
      .where('archived_at', 'is', null)
      .groupBy('item_id')
      .execute(),
    db
      .selectFrom('reviews')
      .select(['item_id', sql<string>`avg(rating)`.as('average'), sql<string>`count(*)`.as('count')])
      .where('organization_id', '=', organizationId)
      .where('item_id', 'in', ids)
      .where('status', '=', 'PUBLISHED')
      .groupBy('item_id')
      .execute(),
    db
      .selectFrom('collection_items')
      .innerJoin('collections', (join) =>
        join
          .onRef('collections.organization_id', '=', 'collection_items.organization_id')
          .onRef('collections.id', '=', 'collection_items.collection_id'),
      )
      .select(['collection_items.item_id', 'collection_items.collection_id'])
      .where('collection_items.organization_id', '=', organizationId)
      .where('collection_items.item_id', 'in', ids)
      .$if(options.publicOnly === true, (qb) =>
        qb.where('collections.status', '=', 'ACTIVE').where('collections.archived_at', 'is', null),
      )
      .orderBy('collections.sort_order')
      .orderBy('collections.created_at', 'desc')
      .orderBy('collections.id', 'desc')
      .execute(),
  ]);

  const decorations = new Map<string, ItemDecorations>(ids.map((id) => [id, { ...NONE, collectionIds: [] }]));
  for (const row of prices) {
    const entry = decorations.get(row.item_id)!;
    entry.salePriceInCents = row.sale_price === null ? null : Number(row.sale_price);
  }
  for (const row of ratings) {
    const entry = decorations.get(row.item_id)!;
    entry.ratingCount = Number(row.count);
    // Two decimals, as a storefront shows it (4.33 stars).
    entry.ratingAverage = Math.round(Number(row.average) * 100) / 100;
  }
  for (const row of memberships) decorations.get(row.item_id)!.collectionIds.push(row.collection_id);
  return items.map((item) => {
    const read = toItemRead(item, decorations.get(item.id)!);
    return options.publicOnly === true ? { ...read, metafields: publicMetafields(read.metafields) } : read;
  });
}
