import { AppError } from '@commerce/core';
import type { Database, ShippingZone } from '@commerce/db';
import { type Kysely, type SqlBool, sql } from 'kysely';

/**
 * One page of the organization's zones in display order (sortOrder, then
 * name, then id: the index `shipping_zones_order_idx`), in one query: the
 * cursor zone's sort values are read by a subquery, so a page costs no
 * extra round trip. The cursor may name an archived zone (one archived
 * between two pages still marks the place). Only when the page comes back
 * empty is the cursor checked, to tell the end of the list (an empty page)
 * from a cursor that names no zone of the organization (400).
 */
export async function zonePage(
  db: Kysely<Database>,
  organizationId: string,
  options: { rows: number; cursor?: string | undefined; includeArchived: boolean },
): Promise<ShippingZone[]> {
  const { cursor } = options;
  const rows = await db
    .selectFrom('shipping_zones')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .$if(!options.includeArchived, (qb) => qb.where('archived_at', 'is', null))
    .$if(cursor !== undefined, (qb) =>
      qb.where(
        sql<SqlBool>`(shipping_zones.sort_order, shipping_zones.name, shipping_zones.id) > (
          select cursor_zone.sort_order, cursor_zone.name, cursor_zone.id
          from shipping_zones as cursor_zone
          where cursor_zone.organization_id = ${organizationId} and cursor_zone.id = ${cursor}
        )`,
      ),
    )
    .orderBy('sort_order')
    .orderBy('name')
    .orderBy('id')
    .limit(options.rows)
    .execute();

  if (rows.length === 0 && cursor !== undefined) {
    const known = await db
      .selectFrom('shipping_zones')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', cursor)
      .executeTakeFirst();
    if (!known) throw AppError.validation([{ path: 'cursor', message: 'does not name a shipping zone' }]);
  }
  return rows;
}
