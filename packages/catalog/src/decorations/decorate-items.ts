import type { Database } from '@commerce/db';
import { type Expression, type Kysely, type RawBuilder, sql } from 'kysely';
import { type ItemRead, type ItemRow, publicMetafields, toItemRead } from '../items/item-read.ts';

export interface ItemDecorations {
  salePriceInCents: number | null;
  ratingAverage: number | null;
  ratingCount: number;
  collectionIds: string[];
}

export interface DecorateOptions {
  /** Count only ACTIVE, non-archived collections and hide the service's reserved `__` metafields. */
  publicOnly?: boolean;
}

/** The decoration columns of one row, as the decoration SQL names them. */
export interface DecorationColumns {
  sale_price: number | string | null;
  rating_average: number | string | null;
  rating_count: number | string;
  collection_ids: string[] | null;
}

/**
 * The list decorations of the rows of a relation named `page` (with an `id`
 * column), as select-list expressions: the sale price from the non-archived
 * variants (a variant's sale price, else its price, the lowest of them), the
 * rating aggregates of published reviews, and the collections holding each
 * item (in the merchant's order of collections), each a correlated subquery
 * served by its table's index. Use with `ratingsOfPage` in the from clause.
 */
function decorationSelect(organizationId: string, options: DecorateOptions): RawBuilder<unknown> {
  const publicCollections =
    options.publicOnly === true ? sql`and c.status = 'ACTIVE' and c.archived_at is null` : sql``;
  return sql`(select min(coalesce(v.sale_price_in_cents, v.price_in_cents)) from variants v
        where v.organization_id = ${organizationId} and v.item_id = page.id and v.archived_at is null) as sale_price,
      r.rating_average, r.rating_count,
      (select json_agg(ci.collection_id order by c.sort_order, c.created_at desc, c.id desc)
        from collection_items ci
        join collections c on c.organization_id = ci.organization_id and c.id = ci.collection_id
        where ci.organization_id = ${organizationId} and ci.item_id = page.id ${publicCollections}) as collection_ids`;
}

/** The rating aggregates of each row of `page`, joined as `r`. */
function ratingsOfPage(organizationId: string): RawBuilder<unknown> {
  return sql`cross join lateral (
      select avg(rv.rating) as rating_average, count(*) as rating_count from reviews rv
      where rv.organization_id = ${organizationId} and rv.item_id = page.id and rv.status = 'PUBLISHED'
    ) r`;
}

/**
 * A page query (any select of `ITEM_COLUMNS` from `items`, with its filters,
 * order and limit) and its decorations in one statement: each statement costs
 * the gateway a socket write and a round trip, which on a busy server is most
 * of a read's cost. `extraColumns` adds select-list expressions over `page`
 * (the item detail adds its variants); `orderBy` repeats the page's order,
 * which the outer select does not inherit from the CTE.
 */
export function decoratedPageQuery<Row>(
  organizationId: string,
  pageQuery: Expression<unknown>,
  options: DecorateOptions & { extraColumns?: RawBuilder<unknown>; orderBy?: RawBuilder<unknown> } = {},
): RawBuilder<Row & DecorationColumns> {
  const extra = options.extraColumns ? sql`, ${options.extraColumns}` : sql``;
  const order = options.orderBy ? sql` order by ${options.orderBy}` : sql``;
  return sql<Row & DecorationColumns>`with page as ${pageQuery}
    select page.*, ${decorationSelect(organizationId, options)}${extra}
    from page ${ratingsOfPage(organizationId)}${order}`;
}

/** The merchant list order (see `inItemOrder`), over `page`. */
export const PAGE_ITEM_ORDER = sql`page.sort_order, page.created_at desc, page.id desc`;

/** The decorations a decoration query answered for one row. */
export function decorationsOf(row: DecorationColumns): ItemDecorations {
  return {
    salePriceInCents: row.sale_price === null ? null : Number(row.sale_price),
    // Two decimals, as a storefront shows it (4.33 stars).
    ratingAverage: row.rating_average === null ? null : Math.round(Number(row.rating_average) * 100) / 100,
    ratingCount: Number(row.rating_count),
    collectionIds: row.collection_ids ?? [],
  };
}

/** An item row with its decoration columns, read as its audience sees it. */
export function toDecoratedItemRead(
  row: Parameters<typeof toItemRead>[0] & DecorationColumns,
  options: DecorateOptions = {},
): ItemRead {
  const read = toItemRead(row, decorationsOf(row));
  if (options.publicOnly === true) read.metafields = publicMetafields(read.metafields);
  return read;
}

/**
 * The list decorations of items already loaded, in one query whatever their
 * number (see `decorationSelect`).
 */
export async function decorateItems(
  db: Kysely<Database>,
  organizationId: string,
  items: ItemRow[],
  options: DecorateOptions = {},
): Promise<ItemRead[]> {
  if (items.length === 0) return [];
  const ids = items.map((item) => item.id);
  const { rows } = await sql<{ id: string } & DecorationColumns>`
    select page.id,
      ${decorationSelect(organizationId, options)}
    from unnest(${ids}::text[]) as page(id)
    ${ratingsOfPage(organizationId)}`.execute(db);

  const decorations = new Map<string, ItemDecorations>();
  for (const row of rows) decorations.set(row.id, decorationsOf(row));
  return items.map((item) => {
    const read = toItemRead(item, decorations.get(item.id) ?? decorationsOf(NO_DECORATIONS));
    if (options.publicOnly === true) read.metafields = publicMetafields(read.metafields);
    return read;
  });
}

const NO_DECORATIONS: DecorationColumns = {
  sale_price: null,
  rating_average: null,
  rating_count: 0,
  collection_ids: null,
};
