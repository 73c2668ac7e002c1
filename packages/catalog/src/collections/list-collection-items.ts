import type { Page, PageQuery } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ItemRead } from '../items/item-read.ts';
import { collectionMembersPage } from './collection-members.ts';
import { collectionNotFound } from './collection-rows.ts';

/**
 * The members of a collection for the merchant: every item whatever its
 * status (DRAFT and archived included), in the collection's order, decorated
 * like the merchant item list, keyset-paginated by item id. An archived
 * collection still lists its members; an unknown one is 404.
 */
export async function listCollectionItems(
  db: Kysely<Database>,
  organizationId: string,
  collectionId: string,
  query: PageQuery,
): Promise<Page<ItemRead>> {
  const collection = await db
    .selectFrom('collections')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', collectionId)
    .executeTakeFirst();
  if (!collection) throw collectionNotFound();
  return collectionMembersPage(db, organizationId, collectionId, query, { publicOnly: false });
}
