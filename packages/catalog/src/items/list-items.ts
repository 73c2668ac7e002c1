import { type Page, toPage } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { toDecoratedItemRead } from '../decorations/decorate-items.ts';
import { decoratedItemPage } from './decorated-item-page.ts';
import { resolveItemCursor } from './item-page.ts';
import { ITEM_COLUMNS, type ItemRead } from './item-read.ts';
import type { ItemListQuery } from './schemas.ts';

/**
 * The merchant item list: sortOrder ascending, then createdAt and id
 * descending, keyset-paginated, the page and its decorations in one statement.
 * Archived items are hidden unless `archived` is true; `status` filters
 * exactly (`ARCHIVED` lists only archived items, `ACTIVE` and `DRAFT` never
 * include them); `compositionCandidate` true keeps the items without
 * components of their own, false only the packages and kits.
 */
export async function listItems(
  db: Kysely<Database>,
  organizationId: string,
  query: ItemListQuery,
): Promise<Page<ItemRead>> {
  const cursor = await resolveItemCursor(db, organizationId, query.cursor);
  const filtered = db
    .selectFrom('items')
    .select(ITEM_COLUMNS)
    .where('items.organization_id', '=', organizationId)
    .$if(query.status !== undefined, (qb) => qb.where('items.status', '=', query.status!))
    .$if(query.status === undefined && query.archived !== true, (qb) =>
      qb.where('items.archived_at', 'is', null),
    )
    .$if(query.type !== undefined, (qb) => qb.where('items.type', '=', query.type!))
    .$if(query.compositionCandidate !== undefined, (qb) =>
      qb.where((eb) => {
        const isComposition = eb.exists(
          eb
            .selectFrom('item_components')
            .select(sql<number>`1`.as('one'))
            .whereRef('item_components.organization_id', '=', 'items.organization_id')
            .whereRef('item_components.parent_item_id', '=', 'items.id'),
        );
        return query.compositionCandidate ? eb.not(isComposition) : isComposition;
      }),
    );
  const rows = await decoratedItemPage(db, organizationId, filtered, {
    cursor,
    limit: query.limit,
    search: query.search || undefined,
  });
  const page = toPage(rows, query.limit);
  return { data: page.data.map((row) => toDecoratedItemRead(row)), nextCursor: page.nextCursor };
}
