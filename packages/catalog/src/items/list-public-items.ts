import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { toDecoratedItemRead } from '../decorations/decorate-items.ts';
import { decoratedItemPage } from './decorated-item-page.ts';
import { resolveItemCursor } from './item-page.ts';
import { PUBLIC_ITEM_COLUMNS, type PublicItemRead, toPublicItemRead } from './item-read.ts';
import type { PublicItemListQuery } from './schemas.ts';

/**
 * The storefront item list (keyset pages, docs/api.md "Pagination"): `ACTIVE`, unarchived
 * items in the merchant order, as a flat array; the next page starts after
 * the id of the last item. `collection` keeps the items of that collection
 * when it is `ACTIVE` and unarchived (otherwise nothing). Decorated as a
 * shopper sees it (public collections only, no reserved metafields), in the
 * same statement as the page.
 */
export async function listPublicItems(
  db: Kysely<Database>,
  organizationId: string,
  query: PublicItemListQuery,
): Promise<PublicItemRead[]> {
  const cursor = await resolveItemCursor(db, organizationId, query.cursor);
  const filtered = db
    .selectFrom('items')
    .select(PUBLIC_ITEM_COLUMNS)
    .where('items.organization_id', '=', organizationId)
    .where('items.status', '=', 'ACTIVE')
    .where('items.archived_at', 'is', null)
    .$if(query.type !== undefined, (qb) => qb.where('items.type', '=', query.type!))
    .$if(query.collection !== undefined, (qb) =>
      qb.where((eb) =>
        eb.exists(
          eb
            .selectFrom('collection_items')
            .innerJoin('collections', (join) =>
              join
                .onRef('collections.organization_id', '=', 'collection_items.organization_id')
                .onRef('collections.id', '=', 'collection_items.collection_id'),
            )
            .select(sql<number>`1`.as('one'))
            .whereRef('collection_items.organization_id', '=', 'items.organization_id')
            .whereRef('collection_items.item_id', '=', 'items.id')
            .where('collections.slug', '=', query.collection!)
            .where('collections.status', '=', 'ACTIVE')
            .where('collections.archived_at', 'is', null),
        ),
      ),
    );
  const rows = await decoratedItemPage(
    db,
    organizationId,
    filtered,
    { cursor, limit: query.limit, search: query.search || undefined },
    { publicOnly: true },
  );
  return rows
    .slice(0, query.limit)
    .map((row) => toPublicItemRead(toDecoratedItemRead(row, { publicOnly: true })));
}
