import { AppError, type ValidationIssue } from '@commerce/core';
import type { Collection, Database } from '@commerce/db';
import { type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { CollectionRead, PublicCollectionRead } from './schemas.ts';

export const collectionNotFound = () => AppError.notFound('Collection not found');

export const slugTaken = () =>
  new AppError('SLUG_TAKEN', 'Another collection of the organization has this slug');

/**
 * The collection row under `select … for update`: every change to a
 * collection or to its members holds it until commit, so appends, removals
 * and reorders of one collection run one after another.
 */
export async function lockCollection(
  trx: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<Collection> {
  const row = await trx
    .selectFrom('collections')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw collectionNotFound();
  return row;
}

export function toCollectionRead(row: Collection, itemCount: number): CollectionRead {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    status: row.status,
    sortOrder: row.sort_order,
    itemCount,
    archivedAt: row.archived_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toPublicCollectionRead(row: Collection, itemCount: number): PublicCollectionRead {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    sortOrder: row.sort_order,
    itemCount,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * Members per collection for a page of collections, in one query. `publicOnly`
 * counts the items a shopper sees (ACTIVE, hence not archived).
 */
export async function countCollectionItems(
  db: Kysely<Database>,
  organizationId: string,
  collectionIds: string[],
  options: { publicOnly?: boolean } = {},
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(collectionIds.map((id) => [id, 0]));
  if (collectionIds.length === 0) return counts;
  const rows = await db
    .selectFrom('collection_items')
    .innerJoin('items', (join) =>
      join
        .onRef('items.organization_id', '=', 'collection_items.organization_id')
        .onRef('items.id', '=', 'collection_items.item_id'),
    )
    .$if(options.publicOnly === true, (qb) =>
      qb.where('items.status', '=', 'ACTIVE').where('items.archived_at', 'is', null),
    )
    .select(['collection_items.collection_id', sql<number>`count(*)`.as('count')])
    .where('collection_items.organization_id', '=', organizationId)
    .where('collection_items.collection_id', 'in', collectionIds)
    .groupBy('collection_items.collection_id')
    .execute();
  for (const row of rows) counts.set(row.collection_id, Number(row.count));
  return counts;
}

export async function countOneCollection(
  db: Kysely<Database>,
  organizationId: string,
  collectionId: string,
): Promise<number> {
  return (await countCollectionItems(db, organizationId, [collectionId])).get(collectionId) ?? 0;
}

/**
 * Why `sent` is not exactly `current` (each id once, none missing, none
 * foreign), as validation issues under `path`; empty when it is.
 */
export function completeSetIssues(path: string, sent: string[], current: string[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const known = new Set(current);
  const seen = new Set<string>();
  sent.forEach((id, index) => {
    if (seen.has(id)) issues.push({ path: `${path}.${index}`, message: `${id} is listed more than once` });
    else if (!known.has(id))
      issues.push({ path: `${path}.${index}`, message: `${id} is not part of the set` });
    seen.add(id);
  });
  const missing = current.filter((id) => !seen.has(id));
  if (missing.length > 0) {
    const shown = missing.slice(0, 20).join(', ');
    const more = missing.length > 20 ? ` and ${missing.length - 20} more` : '';
    issues.push({ path, message: `must list every member of the set; missing ${shown}${more}` });
  }
  return issues;
}

/**
 * Assigns each id its index in `orderedIds` as `column` of the rows of
 * `table` in one statement, and answers how many rows changed.
 */
export async function writeOrder(
  trx: Kysely<Database>,
  statement: 'collections' | 'collection_items',
  organizationId: string,
  orderedIds: string[],
  scope: { collectionId?: string; at: Date },
): Promise<number> {
  if (orderedIds.length === 0) return 0;
  // The ids travel as one JSON parameter, so the statement is the same whatever their number.
  const order = sql`jsonb_array_elements_text(${JSON.stringify(orderedIds)}::jsonb) with ordinality as o(id, n)`;
  const result =
    statement === 'collections'
      ? await sql`
          update collections as c set sort_order = o.n - 1, updated_at = ${scope.at}
          from ${order}
          where c.organization_id = ${organizationId} and c.id = o.id and c.sort_order <> o.n - 1`.execute(
          trx,
        )
      : await sql`
          update collection_items as ci set position = o.n - 1
          from ${order}
          where ci.organization_id = ${organizationId} and ci.collection_id = ${scope.collectionId}
            and ci.item_id = o.id and ci.position <> o.n - 1`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** Where a page of collections starts: the collection named by the cursor, and its sortOrder. */
export interface CollectionCursor {
  id: string;
  sortOrder: number;
}

/**
 * Resolves a list cursor (the id of the last collection of the previous
 * page). Any collection of the organization is a valid position, whatever
 * the filters (one archived since still resumes the order); an id that names
 * none is 400.
 */
export async function resolveCollectionCursor(
  db: Kysely<Database>,
  organizationId: string,
  cursor: string | undefined,
): Promise<CollectionCursor | undefined> {
  if (cursor === undefined) return undefined;
  const row = await db
    .selectFrom('collections')
    .select('sort_order')
    .where('organization_id', '=', organizationId)
    .where('id', '=', cursor)
    .executeTakeFirst();
  if (!row) throw AppError.validation([{ path: 'cursor', message: 'does not name a collection' }]);
  return { id: cursor, sortOrder: row.sort_order };
}

/**
 * The collection order (sortOrder ascending, then createdAt and id
 * descending: `collections_list_idx`), after the cursor, `limit + 1` rows.
 * The cursor's createdAt is compared inside the database, so timestamps
 * finer than JavaScript's milliseconds page exactly.
 */
export function inCollectionOrder<O>(
  query: SelectQueryBuilder<Database, 'collections', O>,
  organizationId: string,
  cursor: CollectionCursor | undefined,
  limit: number,
): SelectQueryBuilder<Database, 'collections', O> {
  return query
    .$if(cursor !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('collections.sort_order', '>', cursor!.sortOrder),
          eb.and([
            eb('collections.sort_order', '=', cursor!.sortOrder),
            sql<SqlBool>`(collections.created_at, collections.id) < (select c.created_at, c.id from collections c where c.organization_id = ${organizationId} and c.id = ${cursor!.id})`,
          ]),
        ]),
      ),
    )
    .orderBy('collections.sort_order', 'asc')
    .orderBy('collections.created_at', 'desc')
    .orderBy('collections.id', 'desc')
    .limit(limit + 1);
}
