import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { decorateItems } from '../decorations/decorate-items.ts';
import { ITEM_COLUMNS, type ItemRead, type ItemRow } from './item-read.ts';

export const itemNotFound = () => AppError.notFound('Item not found');

/** The item row by id in the organization, optionally locked for the caller's transaction. */
export async function findItemRow(
  db: Kysely<Database>,
  organizationId: string,
  itemId: string,
  options: { forUpdate?: boolean } = {},
): Promise<ItemRow | undefined> {
  return db
    .selectFrom('items')
    .select(ITEM_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', itemId)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate())
    .executeTakeFirst();
}

/** One decorated item for a merchant read; archived included. */
export async function toDecoratedItem(
  db: Kysely<Database>,
  organizationId: string,
  item: ItemRow,
): Promise<ItemRead> {
  const [read] = await decorateItems(db, organizationId, [item]);
  return read!;
}

/** A merchant read by id: archived items included; another tenant's is missing (404). */
export async function getItem(
  db: Kysely<Database>,
  organizationId: string,
  itemId: string,
): Promise<ItemRead> {
  const item = await findItemRow(db, organizationId, itemId);
  if (!item) throw itemNotFound();
  return toDecoratedItem(db, organizationId, item);
}

/** A merchant read by slug: archived items included; another tenant's is missing (404). */
export async function getItemBySlug(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
): Promise<ItemRead> {
  const item = await db
    .selectFrom('items')
    .select(ITEM_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (!item) throw itemNotFound();
  return toDecoratedItem(db, organizationId, item);
}
