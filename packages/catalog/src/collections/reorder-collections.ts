import { AppError } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { completeSetIssues, writeOrder } from './collection-rows.ts';

import type { CollectionContext, CollectionOrderRead } from './schemas.ts';

/**
 * The collection-level order, as for items: `orderedIds` must be the complete
 * set of the organization's non-archived collections, each once, else 400;
 * each gets `sortOrder` = its index, in one transaction. The live
 * collections are locked (in id order) while the set is compared and
 * written, so an archive or restore waits for the reorder or is seen by it.
 * Audited as `collection.reordered` with the number of collections whose
 * `sortOrder` changed; an order that changes nothing records nothing.
 */
export async function reorderCollections(
  db: Kysely<Database>,
  ctx: CollectionContext,
  orderedIds: string[],
): Promise<CollectionOrderRead> {
  return inTransaction(db, async (trx) => {
    const live = await trx
      .selectFrom('collections')
      .select('id')
      .where('organization_id', '=', ctx.organizationId)
      .where('archived_at', 'is', null)
      .orderBy('id')
      .forUpdate()
      .execute();
    const issues = completeSetIssues(
      'orderedIds',
      orderedIds,
      live.map((row) => row.id),
    );
    if (issues.length > 0) {
      throw AppError.validation(issues, 'orderedIds must list every non-archived collection exactly once');
    }
    const changed = await writeOrder(trx, 'collections', ctx.organizationId, orderedIds, { at: ctx.at });
    if (changed > 0) {
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'collection.reordered',
        targetType: 'collection',
        targetId: null,
        metadata: { count: orderedIds.length, changed },
        at: ctx.at,
      });
    }
    return { orderedIds };
  });
}
