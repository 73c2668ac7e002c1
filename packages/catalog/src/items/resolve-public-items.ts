import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { decorateItems } from '../decorations/decorate-items.ts';
import { ITEM_COLUMNS, type PublicItemRead, toPublicItemRead } from './item-read.ts';
import type { ResolveItemsInput } from './schemas.ts';

/**
 * Restores a saved cart: the `ACTIVE`, unarchived items among `ids`, in the
 * order asked (each once). Unknown, draft, archived and other tenants' ids are
 * left out silently, so the answer says nothing about them.
 */
export async function resolvePublicItems(
  db: Kysely<Database>,
  organizationId: string,
  input: ResolveItemsInput,
): Promise<PublicItemRead[]> {
  const ids = [...new Set(input.ids)];
  const rows = await db
    .selectFrom('items')
    .select(ITEM_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .where('status', '=', 'ACTIVE')
    .where('archived_at', 'is', null)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
  return (await decorateItems(db, organizationId, ordered, { publicOnly: true })).map(toPublicItemRead);
}
