import { AppError, type Page, toPage } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, type SqlBool, sql } from 'kysely';
import { findItemRow, itemNotFound } from '../items/get-item.ts';
import type { VariantListQuery, VariantRead } from './schemas.ts';
import { toVariantRead } from './variant-read.ts';

/**
 * An item's variants in their order (sortOrder, then oldest first, then id:
 * `variants_item_idx`), keyset-paginated. `archived` false lists the
 * non-archived variants, true every variant. An unknown item is 404, a cursor
 * that names no variant of the item 400.
 */
export async function listVariants(
  db: Kysely<Database>,
  organizationId: string,
  query: VariantListQuery,
): Promise<Page<VariantRead>> {
  const item = await findItemRow(db, organizationId, query.itemId);
  if (!item) throw itemNotFound();
  if (query.cursor !== undefined) {
    const cursor = await db
      .selectFrom('variants')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('item_id', '=', query.itemId)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursor)
      throw AppError.validation([{ path: 'cursor', message: 'does not name a variant of the item' }]);
  }
  const rows = await db
    .selectFrom('variants')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('item_id', '=', query.itemId)
    .$if(!query.archived, (qb) => qb.where('archived_at', 'is', null))
    .$if(query.cursor !== undefined, (qb) =>
      qb.where(
        sql<SqlBool>`(variants.sort_order, variants.created_at, variants.id) > (select c.sort_order, c.created_at, c.id from variants c where c.organization_id = ${organizationId} and c.id = ${query.cursor!})`,
      ),
    )
    .orderBy('sort_order')
    .orderBy('created_at')
    .orderBy('id')
    .limit(query.limit + 1)
    .execute();
  return toPage(rows.map(toVariantRead), query.limit);
}
