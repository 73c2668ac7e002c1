import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { decorateItems } from '../decorations/decorate-items.ts';
import { itemNotFound } from './get-item.ts';
import { ITEM_COLUMNS, type ItemRead } from './item-read.ts';

/** A storefront item by slug: `ACTIVE` and unarchived only; unknown, draft or archived is 404. */
export async function getPublicItem(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
): Promise<ItemRead> {
  const item = await db
    .selectFrom('items')
    .select(ITEM_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .where('status', '=', 'ACTIVE')
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!item) throw itemNotFound();
  const [read] = await decorateItems(db, organizationId, [item], { publicOnly: true });
  return read!;
}
