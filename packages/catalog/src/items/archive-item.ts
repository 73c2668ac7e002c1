import { type Database, inTransaction, recordAudit } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { ItemWriteContext } from './context.ts';

import { findItemRow, itemNotFound, toDecoratedItem } from './get-item.ts';
import { ITEM_COLUMNS, type ItemRead } from './item-read.ts';
import { ARCHIVED_FROM_STATUS_KEY, WRITABLE_ITEM_STATUSES } from './schemas.ts';

/**
 * Archives (soft-deletes) an item from any state:
 * status `ARCHIVED`, `archivedAt` set, the prior status kept in
 * `metafields.__archivedFromStatus`. Archiving an archived item changes
 * nothing and records nothing. Audited as `item.archived`.
 */
export async function archiveItem(
  db: Kysely<Database>,
  ctx: ItemWriteContext,
  itemId: string,
): Promise<ItemRead> {
  return inTransaction(db, async (trx) => {
    const item = await findItemRow(trx, ctx.organizationId, itemId, { forUpdate: true });
    if (!item) throw itemNotFound();
    if (item.archived_at !== null) return toDecoratedItem(trx, ctx.organizationId, item);

    const archived = await trx
      .updateTable('items')
      .set({
        status: 'ARCHIVED',
        archived_at: ctx.at,
        metafields: sql<string>`metafields || jsonb_build_object(${ARCHIVED_FROM_STATUS_KEY}::text, ${item.status}::text)`,
        updated_at: ctx.at,
      })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', itemId)
      .returning(ITEM_COLUMNS)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'item.archived',
      targetType: 'item',
      targetId: itemId,
      metadata: { fromStatus: item.status },
      at: ctx.at,
    });
    return toDecoratedItem(trx, ctx.organizationId, archived);
  });
}

/**
 * Restores an archived item to the status stored at archiving, or `DRAFT`
 * when none (or an unusable one) is stored; clears `archivedAt` and removes
 * `__archivedFromStatus`. Restoring an item that is not archived changes
 * nothing and records nothing. Audited as `item.restored`.
 */
export async function restoreItem(
  db: Kysely<Database>,
  ctx: ItemWriteContext,
  itemId: string,
): Promise<ItemRead> {
  return inTransaction(db, async (trx) => {
    const item = await findItemRow(trx, ctx.organizationId, itemId, { forUpdate: true });
    if (!item) throw itemNotFound();
    if (item.archived_at === null) return toDecoratedItem(trx, ctx.organizationId, item);

    const stored = item.metafields[ARCHIVED_FROM_STATUS_KEY];
    const status = WRITABLE_ITEM_STATUSES.find((candidate) => candidate === stored) ?? 'DRAFT';
    const restored = await trx
      .updateTable('items')
      .set({
        status,
        archived_at: null,
        metafields: sql<string>`metafields - ${ARCHIVED_FROM_STATUS_KEY}::text`,
        updated_at: ctx.at,
      })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', itemId)
      .returning(ITEM_COLUMNS)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'item.restored',
      targetType: 'item',
      targetId: itemId,
      metadata: { toStatus: status },
      at: ctx.at,
    });
    return toDecoratedItem(trx, ctx.organizationId, restored);
  });
}
