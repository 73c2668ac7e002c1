import { AppError, canonicalJson } from '@commerce/core';
import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import { enqueueWebhookEvent } from '@commerce/notifications/webhooks';
import type { Kysely, UpdateObject } from 'kysely';
import { type ItemWriteContext, withoutNullValues } from './context.ts';

import { itemSlugTaken } from './create-item.ts';
import { findItemRow, itemNotFound, toDecoratedItem } from './get-item.ts';
import { ITEM_COLUMNS, type ItemRead } from './item-read.ts';
import { metafieldsSizeProblem, RESERVED_METAFIELD_PREFIX, type UpdateItemChanges } from './schemas.ts';
import { searchTextOf } from './search.ts';
import { changedShippingDimensions } from './shipping-dimensions.ts';

/**
 * Applies a partial update under the item's row lock. Only fields whose value
 * changes are written and audited (`item.updated` with `{ fields }`, the API
 * names); a patch that changes nothing writes nothing. `metafields` is merged
 * key by key (`null` deletes a key; the merged set must stay within the
 * limits, else 400) and the service's reserved `__` keys are kept.
 * An archived item can be edited, but its status changes only through
 * restore (`INVALID_STATE_TRANSITION`). A slug of another item is
 * `SLUG_TAKEN`, decided by the unique constraint.
 */
export async function updateItem(
  db: Kysely<Database>,
  ctx: ItemWriteContext,
  itemId: string,
  changes: UpdateItemChanges,
): Promise<ItemRead> {
  try {
    return await inTransaction(db, async (trx) => {
      const item = await findItemRow(trx, ctx.organizationId, itemId, { forUpdate: true });
      if (!item) throw itemNotFound();
      if (changes.status !== undefined && item.archived_at !== null) {
        throw new AppError(
          'INVALID_STATE_TRANSITION',
          'An archived item changes status only through POST /merchant/items/{id}/restore',
        );
      }

      const set: UpdateObject<Database, 'items'> = {};
      const fields: string[] = [];
      const changed = <T>(field: string, next: T | undefined, current: T): next is T => {
        if (next === undefined || next === current) return false;
        fields.push(field);
        return true;
      };
      if (changed('slug', changes.slug, item.slug)) set.slug = changes.slug;
      if (changed('name', changes.name, item.name)) set.name = changes.name;
      if (changed('type', changes.type, item.type)) set.type = changes.type;
      if (changed('status', changes.status, item.status)) set.status = changes.status;
      if (changed('description', changes.description, item.description))
        set.description = changes.description;
      if (changed('priceInCents', changes.priceInCents, item.price_in_cents))
        set.price_in_cents = changes.priceInCents;
      if (changed('sortOrder', changes.sortOrder, item.sort_order)) set.sort_order = changes.sortOrder;
      if (changed('lowStockThreshold', changes.lowStockThreshold, item.low_stock_threshold))
        set.low_stock_threshold = changes.lowStockThreshold;
      if (changes.tags !== undefined && JSON.stringify(changes.tags) !== JSON.stringify(item.tags)) {
        fields.push('tags');
        set.tags = JSON.stringify(changes.tags);
      }
      if (changes.metafields !== undefined) {
        // Merged per key under the row lock taken above, so concurrent patches of different keys all
        // survive; `null` deletes a key. The request cannot name reserved keys (the schema refuses them).
        const reserved = Object.entries(item.metafields).filter(([key]) =>
          key.startsWith(RESERVED_METAFIELD_PREFIX),
        );
        const merchantKeys = Object.fromEntries(
          Object.entries(item.metafields).filter(([key]) => !key.startsWith(RESERVED_METAFIELD_PREFIX)),
        );
        const merged = withoutNullValues({ ...merchantKeys, ...changes.metafields });
        const problem = metafieldsSizeProblem(merged);
        if (problem) throw AppError.validation([{ path: 'metafields', message: `once merged, ${problem}` }]);
        if (canonicalJson(merged) !== canonicalJson(merchantKeys)) {
          fields.push('metafields');
          set.metafields = JSON.stringify({ ...merged, ...Object.fromEntries(reserved) });
        }
      }
      const dimensions = changedShippingDimensions(changes, item);
      Object.assign(set, dimensions.set);
      fields.push(...dimensions.fields);
      if (fields.length === 0) return toDecoratedItem(trx, ctx.organizationId, item);

      if (fields.includes('name') || fields.includes('description') || fields.includes('tags')) {
        set.search_text = searchTextOf({
          name: changes.name ?? item.name,
          description: changes.description !== undefined ? changes.description : item.description,
          tags: changes.tags ?? item.tags,
        });
      }
      const updated = await trx
        .updateTable('items')
        .set({ ...set, updated_at: ctx.at })
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', itemId)
        .returning(ITEM_COLUMNS)
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'item.updated',
        targetType: 'item',
        targetId: itemId,
        metadata: { fields },
        at: ctx.at,
      });
      const read = await toDecoratedItem(trx, ctx.organizationId, updated);
      await enqueueWebhookEvent(trx, {
        organizationId: ctx.organizationId,
        type: 'item.updated',
        objectId: itemId,
        data: read,
        at: ctx.at,
      });
      return read;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'items_slug_key')) throw itemSlugTaken();
    throw error;
  }
}
