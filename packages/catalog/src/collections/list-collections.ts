import { type Page, toPage } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  countCollectionItems,
  inCollectionOrder,
  resolveCollectionCursor,
  toCollectionRead,
} from './collection-rows.ts';
import type { CollectionListQuery, CollectionRead } from './schemas.ts';

/**
 * The organization's collections for the merchant, in the collection order
 * (`sortOrder` ascending, then newest first, then id descending; the
 * `collections_list_idx` index), keyset-paginated. Archived collections only
 * with `archived: true`; `status` filters. `itemCount` for the whole page in
 * one query.
 */
export async function listCollections(
  db: Kysely<Database>,
  organizationId: string,
  query: CollectionListQuery,
): Promise<Page<CollectionRead>> {
  const cursor = await resolveCollectionCursor(db, organizationId, query.cursor);
  const rows = await inCollectionOrder(
    db
      .selectFrom('collections')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .$if(query.archived !== true, (qb) => qb.where('archived_at', 'is', null))
      .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!)),
    organizationId,
    cursor,
    query.limit,
  ).execute();
  const page = rows.slice(0, query.limit);
  const counts = await countCollectionItems(
    db,
    organizationId,
    page.map((row) => row.id),
  );
  return toPage(
    rows.map((row) => toCollectionRead(row, counts.get(row.id) ?? 0)),
    query.limit,
  );
}
