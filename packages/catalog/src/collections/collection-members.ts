import { AppError, keysetAfter, type Page, type PageQuery } from '@commerce/core';
import type { Database, Item } from '@commerce/db';
import type { Kysely } from 'kysely';
import { decorateItems } from '../decorations/decorate-items.ts';
import type { ItemRead } from '../items/item-read.ts';

/**
 * A page of a collection's members in the collection's own order (position,
 * then item id), decorated for the whole page in a fixed number of queries.
 * The cursor is the id of the last item of the previous page, resolved to its
 * position in this collection; an id that is not a member is 400.
 * `publicOnly` keeps ACTIVE items and decorates as a shopper sees them.
 */
export async function collectionMembersPage(
  db: Kysely<Database>,
  organizationId: string,
  collectionId: string,
  query: PageQuery,
  options: { publicOnly: boolean },
): Promise<Page<ItemRead>> {
  let cursorRow: { position: number; item_id: string } | undefined;
  if (query.cursor) {
    cursorRow = await db
      .selectFrom('collection_items')
      .select(['position', 'item_id'])
      .where('organization_id', '=', organizationId)
      .where('collection_id', '=', collectionId)
      .where('item_id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursorRow) {
      throw AppError.validation([{ path: 'cursor', message: 'does not name an item of this collection' }]);
    }
  }
  const rows = await db
    .selectFrom('collection_items')
    .innerJoin('items', (join) =>
      join
        .onRef('items.organization_id', '=', 'collection_items.organization_id')
        .onRef('items.id', '=', 'collection_items.item_id'),
    )
    .selectAll('items')
    .where('collection_items.organization_id', '=', organizationId)
    .where('collection_items.collection_id', '=', collectionId)
    .$if(options.publicOnly, (qb) =>
      qb.where('items.status', '=', 'ACTIVE').where('items.archived_at', 'is', null),
    )
    .$if(cursorRow !== undefined, (qb) =>
      qb.where((eb) =>
        keysetAfter(eb, [
          { column: 'collection_items.position', direction: 'asc', value: cursorRow!.position },
          { column: 'collection_items.item_id', direction: 'asc', value: cursorRow!.item_id },
        ]),
      ),
    )
    .orderBy('collection_items.position', 'asc')
    .orderBy('collection_items.item_id', 'asc')
    .limit(query.limit + 1)
    .execute();
  const items: Item[] = rows;
  const decorated = await decorateItems(db, organizationId, items.slice(0, query.limit), {
    publicOnly: options.publicOnly,
  });
  const hasMore = items.length > query.limit;
  return { data: decorated, nextCursor: hasMore ? decorated[decorated.length - 1]!.id : null };
}
