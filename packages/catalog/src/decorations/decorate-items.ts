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

interface DecorationRow {
  id: string;
  sale_price: number | string | null;
  rating_average: number | string | null;
  rating_count: number | string;
  collection_ids: string[] | null;
}

/**
 * The list decorations of a page of items, in one query whatever the page's
 * size (one round trip: each query costs the gateway a socket write and a
 * parse): the sale price from the non-archived variants (a variant's sale
 * price, else its price, the lowest of them), the rating aggregates of
 * published reviews, and the collections holding each item (in the
 * merchant's order of collections), each a correlated subquery served by its
 * table's index. `publicOnly` counts only ACTIVE, non-archived collections,
 * as a shopper sees them, and removes the service's reserved `__` metafields.
 */
export async function decorateItems(
  db: Kysely<Database>,
  organizationId: string,
  items: ItemRow[],
  options: { publicOnly?: boolean } = {},
): Promise<ItemRead[]> {
  if (items.length === 0) return [];
  const ids = items.map((item) => item.id);
  const publicCollections =
    options.publicOnly === true ? sql`and c.status = 'ACTIVE' and c.archived_at is null` : sql``;
  const { rows } = await sql<DecorationRow>`
    select page.id,
      (select min(coalesce(v.sale_price_in_cents, v.price_in_cents)) from variants v
        where v.organization_id = ${organizationId} and v.item_id = page.id and v.archived_at is null) as sale_price,
      r.rating_average, r.rating_count,
      (select json_agg(ci.collection_id order by c.sort_order, c.created_at desc, c.id desc)
        from collection_items ci
        join collections c on c.organization_id = ci.organization_id and c.id = ci.collection_id
        where ci.organization_id = ${organizationId} and ci.item_id = page.id ${publicCollections}) as collection_ids
    from unnest(${ids}::text[]) as page(id)
    cross join lateral (
      select avg(rv.rating) as rating_average, count(*) as rating_count from reviews rv
      where rv.organization_id = ${organizationId} and rv.item_id = page.id and rv.status = 'PUBLISHED'
    ) r`.execute(db);

  const decorations = new Map<string, ItemDecorations>();
  for (const row of rows) {
    decorations.set(row.id, {
      salePriceInCents: row.sale_price === null ? null : Number(row.sale_price),
      // Two decimals, as a storefront shows it (4.33 stars).
      ratingAverage: row.rating_average === null ? null : Math.round(Number(row.rating_average) * 100) / 100,
      ratingCount: Number(row.rating_count),
      collectionIds: row.collection_ids ?? [],
    });
  }
  return items.map((item) => {
    const read = toItemRead(item, decorations.get(item.id) ?? { ...NONE, collectionIds: [] });
    return options.publicOnly === true ? { ...read, metafields: publicMetafields(read.metafields) } : read;
  });
}
