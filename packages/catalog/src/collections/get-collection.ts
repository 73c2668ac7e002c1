import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { collectionNotFound, countOneCollection, toCollectionRead } from './collection-rows.ts';
import type { CollectionRead } from './schemas.ts';

/** One collection of the organization, archived or not; 404 for any other id. */
export async function getCollection(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<CollectionRead> {
  const row = await db
    .selectFrom('collections')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw collectionNotFound();
  return toCollectionRead(row, await countOneCollection(db, organizationId, id));
}
