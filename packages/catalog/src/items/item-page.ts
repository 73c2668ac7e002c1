import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';

/** Where a page starts: the item named by the cursor, and its sortOrder. */
export interface ItemCursor {
  id: string;
  sortOrder: number;
}

/**
 * Resolves a cursor (the id of the last item of the previous page) to its
 * position. Any item of the organization is a valid position, whatever the
 * filters; an id that names none is a validation failure.
 */
export async function resolveItemCursor(
  db: Kysely<Database>,
  organizationId: string,
  cursor: string | undefined,
): Promise<ItemCursor | undefined> {
  if (cursor === undefined) return undefined;
  const row = await db
    .selectFrom('items')
    .select('sort_order')
    .where('organization_id', '=', organizationId)
    .where('id', '=', cursor)
    .executeTakeFirst();
  if (!row) throw AppError.validation([{ path: 'cursor', message: 'does not name an item' }]);
  return { id: cursor, sortOrder: row.sort_order };
}

/** The items after the cursor in the merchant order (see `inItemOrder`); all of them without one. */
export function afterItemCursor<O>(
  query: SelectQueryBuilder<Database, 'items', O>,
  organizationId: string,
  cursor: ItemCursor | undefined,
): SelectQueryBuilder<Database, 'items', O> {
  return query.$if(cursor !== undefined, (qb) =>
    qb.where((eb) =>
      eb.or([
        eb('items.sort_order', '>', cursor!.sortOrder),
        eb.and([
          eb('items.sort_order', '=', cursor!.sortOrder),
          sql<SqlBool>`(items.created_at, items.id) < (select c.created_at, c.id from items c where c.organization_id = ${organizationId} and c.id = ${cursor!.id})`,
        ]),
      ]),
    ),
  );
}

/**
 * The merchant order (sortOrder ascending, then createdAt and id descending,
 * the order of `items_list_idx` and `items_status_idx`), after the cursor,
 * `limit + 1` rows. The cursor row's createdAt is compared inside the
 * database, so timestamps finer than JavaScript's milliseconds page exactly.
 */
export function inItemOrder<O>(
  query: SelectQueryBuilder<Database, 'items', O>,
  organizationId: string,
  cursor: ItemCursor | undefined,
  limit: number,
): SelectQueryBuilder<Database, 'items', O> {
  return afterItemCursor(query, organizationId, cursor)
    .orderBy('items.sort_order')
    .orderBy('items.created_at', 'desc')
    .orderBy('items.id', 'desc')
    .limit(limit + 1);
}
