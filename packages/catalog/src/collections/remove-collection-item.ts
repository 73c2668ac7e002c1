import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { lockCollection } from './collection-rows.ts';

import type { CollectionContext } from './schemas.ts';

/**
 * Takes an item out of a collection. Idempotent: `{ removed: 1 }` when it was
 * a member, `{ removed: 0 }` otherwise (an unknown item included); a 404 only
 * for an unknown collection. The others keep their positions (a gap is
 * harmless: order is by position). Audited as `collection.item_removed`
 * when something was removed.
 */
export async function removeCollectionItem(
  db: Kysely<Database>,
  ctx: CollectionContext,
  collectionId: string,
  itemId: string,
): Promise<{ removed: 0 | 1 }> {
  return inTransaction(db, async (trx) => {
    await lockCollection(trx, ctx.organizationId, collectionId);
    const result = await trx
      .deleteFrom('collection_items')
      .where('organization_id', '=', ctx.organizationId)
      .where('collection_id', '=', collectionId)
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return { removed: 0 };
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'collection.item_removed',
      targetType: 'collection',
      targetId: collectionId,
      metadata: { itemId },
      at: ctx.at,
    });
    return { removed: 1 };
  });
}
