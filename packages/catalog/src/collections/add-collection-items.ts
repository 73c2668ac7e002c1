import { AppError } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { lockCollection } from './collection-rows.ts';

import type { CollectionContext, CollectionItemsAdded } from './schemas.ts';

/**
 * Appends items to a collection: items already in it are skipped (they keep
 * their place), the others go at the end in the order sent (a repeated id
 * counts once). Every id must name an item of the organization (any status,
 * archived too), else 400 with one issue per unknown id and nothing changes.
 * Under the collection's row lock, so concurrent appends never give two
 * members one position nor add an item twice. Audited as
 * `collection.items_added` with the appended ids; nothing appended, nothing
 * recorded.
 */
export async function addCollectionItems(
  db: Kysely<Database>,
  ctx: CollectionContext,
  collectionId: string,
  itemIds: string[],
): Promise<CollectionItemsAdded> {
  if (itemIds.length === 0)
    throw AppError.validation([{ path: 'itemIds', message: 'must name at least one item' }]);
  const requested = [...new Set(itemIds)];
  return inTransaction(db, async (trx) => {
    await lockCollection(trx, ctx.organizationId, collectionId);

    const known = await trx
      .selectFrom('items')
      .select('id')
      .where('organization_id', '=', ctx.organizationId)
      .where('id', 'in', requested)
      .execute();
    const knownIds = new Set(known.map((row) => row.id));
    const unknown = itemIds.flatMap((id, index) =>
      knownIds.has(id) ? [] : [{ path: `itemIds.${index}`, message: `${id} does not name an item` }],
    );
    if (unknown.length > 0) throw AppError.validation(unknown, 'Some itemIds do not name an item');

    const present = await trx
      .selectFrom('collection_items')
      .select('item_id')
      .where('organization_id', '=', ctx.organizationId)
      .where('collection_id', '=', collectionId)
      .where('item_id', 'in', requested)
      .execute();
    const presentIds = new Set(present.map((row) => row.item_id));
    const added = requested.filter((id) => !presentIds.has(id));
    const skipped = requested.filter((id) => presentIds.has(id));

    const { last, count } = await trx
      .selectFrom('collection_items')
      .select((eb) => [eb.fn.max<number | null>('position').as('last'), eb.fn.countAll<number>().as('count')])
      .where('organization_id', '=', ctx.organizationId)
      .where('collection_id', '=', collectionId)
      .executeTakeFirstOrThrow();
    if (added.length === 0) {
      return { addedItemIds: [], skippedItemIds: skipped, itemCount: Number(count) };
    }

    const start = last === null ? 0 : Number(last) + 1;
    await trx
      .insertInto('collection_items')
      .values(
        added.map((itemId, index) => ({
          organization_id: ctx.organizationId,
          collection_id: collectionId,
          item_id: itemId,
          position: start + index,
          created_at: ctx.at,
        })),
      )
      .execute();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'collection.items_added',
      targetType: 'collection',
      targetId: collectionId,
      metadata: { itemIds: added },
      at: ctx.at,
    });
    return { addedItemIds: added, skippedItemIds: skipped, itemCount: Number(count) + added.length };
  });
}
