import { AppError } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { completeSetIssues, lockCollection, writeOrder } from './collection-rows.ts';

import type { CollectionContext, CollectionItemOrderRead } from './schemas.ts';

/**
 * Sets the order of a collection's members: `itemIds` must be exactly the
 * current member set, each once, else 400 and nothing changes; each member's
 * position becomes its index. Compared and written in one transaction under
 * the collection's row lock, so a concurrent append or removal is either
 * before it (and must be in the set) or after it. Audited as
 * `collection.items_reordered` with the number of members and of those that
 * moved; an order that moves nothing records nothing.
 */
export async function reorderCollectionItems(
  db: Kysely<Database>,
  ctx: CollectionContext,
  collectionId: string,
  itemIds: string[],
): Promise<CollectionItemOrderRead> {
  return inTransaction(db, async (trx) => {
    await lockCollection(trx, ctx.organizationId, collectionId);
    const members = await trx
      .selectFrom('collection_items')
      .select('item_id')
      .where('organization_id', '=', ctx.organizationId)
      .where('collection_id', '=', collectionId)
      .execute();
    const issues = completeSetIssues(
      'itemIds',
      itemIds,
      members.map((row) => row.item_id),
    );
    if (issues.length > 0) {
      throw AppError.validation(issues, 'itemIds must list every item of the collection exactly once');
    }
    const changed = await writeOrder(trx, 'collection_items', ctx.organizationId, itemIds, {
      collectionId,
      at: ctx.at,
    });
    if (changed > 0) {
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'collection.items_reordered',
        targetType: 'collection',
        targetId: collectionId,
        metadata: { count: itemIds.length, changed },
        at: ctx.at,
      });
    }
    return { itemIds };
  });
}
