import { AppError, newId } from '@commerce/core';
import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { type ItemWriteContext, withoutNullValues } from './context.ts';

import { ITEM_COLUMNS, type ItemRead, toItemRead } from './item-read.ts';
import type { CreateItemInput } from './schemas.ts';
import { searchTextOf } from './search.ts';
import { shippingDimensionValues } from './shipping-dimensions.ts';

export const itemSlugTaken = () =>
  new AppError('SLUG_TAKEN', 'Another item of the organization has this slug');

/**
 * Creates an item (default `DRAFT`, sortOrder 0). The slug's uniqueness is
 * the database's (`items_slug_key`): of concurrent creates of one slug,
 * exactly one succeeds and the others are `SLUG_TAKEN`. Audited as
 * `item.created` in the same transaction.
 */
export async function createItem(
  db: Kysely<Database>,
  ctx: ItemWriteContext,
  input: CreateItemInput,
): Promise<ItemRead> {
  const id = newId('itm', ctx.at);
  const tags = input.tags ?? [];
  const description = input.description ?? null;
  try {
    return await inTransaction(db, async (trx) => {
      const item = await trx
        .insertInto('items')
        .values({
          organization_id: ctx.organizationId,
          id,
          slug: input.slug,
          name: input.name,
          description,
          tags: JSON.stringify(tags),
          type: input.type,
          status: input.status,
          sort_order: input.sortOrder ?? 0,
          price_in_cents: input.priceInCents ?? null,
          // A null value means "no such key", as in a PATCH.
          metafields: JSON.stringify(withoutNullValues(input.metafields ?? {})),
          search_text: searchTextOf({ name: input.name, description, tags }),
          archived_at: null,
          created_at: ctx.at,
          updated_at: ctx.at,
          ...shippingDimensionValues(input),
          low_stock_threshold: input.lowStockThreshold ?? null,
        })
        .returning(ITEM_COLUMNS)
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'item.created',
        targetType: 'item',
        targetId: id,
        metadata: { slug: item.slug, type: item.type, status: item.status },
        at: ctx.at,
      });
      // A new item has no variants, reviews or collections yet: nothing to look up.
      return toItemRead(item, {
        salePriceInCents: null,
        ratingAverage: null,
        ratingCount: 0,
        collectionIds: [],
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'items_slug_key')) throw itemSlugTaken();
    throw error;
  }
}
