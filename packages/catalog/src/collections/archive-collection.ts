import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { countOneCollection, lockCollection, toCollectionRead } from './collection-rows.ts';

import type { CollectionContext, CollectionRead } from './schemas.ts';

/**
 * Soft-deletes a collection: sets `archivedAt` and keeps its status, members
 * and order. Idempotent: archiving an archived collection answers it as it is
 * (the first `archivedAt`) and records nothing.
 */
export async function archiveCollection(
  db: Kysely<Database>,
  ctx: CollectionContext,
  id: string,
): Promise<CollectionRead> {
  return setArchived(db, ctx, id, true);
}

/**
 * Brings an archived collection back: clears `archivedAt`, keeps its status.
 * Idempotent: restoring a live collection answers it unchanged.
 */
export async function restoreCollection(
  db: Kysely<Database>,
  ctx: CollectionContext,
  id: string,
): Promise<CollectionRead> {
  return setArchived(db, ctx, id, false);
}

function setArchived(
  db: Kysely<Database>,
  ctx: CollectionContext,
  id: string,
  archived: boolean,
): Promise<CollectionRead> {
  return inTransaction(db, async (trx) => {
    const current = await lockCollection(trx, ctx.organizationId, id);
    const itemCount = await countOneCollection(trx, ctx.organizationId, id);
    if ((current.archived_at !== null) === archived) return toCollectionRead(current, itemCount);

    const row = await trx
      .updateTable('collections')
      .set({ archived_at: archived ? ctx.at : null, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: archived ? 'collection.archived' : 'collection.restored',
      targetType: 'collection',
      targetId: id,
      metadata: {},
      at: ctx.at,
    });
    return toCollectionRead(row, itemCount);
  });
}
