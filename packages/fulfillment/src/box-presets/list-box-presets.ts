import { AppError, type Page, toPage } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, type SqlBool, sql } from 'kysely';
import { toBoxPresetRead } from './box-preset-read.ts';
import type { BoxPresetListQuery, BoxPresetRead } from './schemas.ts';

/**
 * The merchant list in display order (sortOrder, name, id: the index
 * `box_presets_order_idx`, or its partial twin when archived presets are left
 * out), keyset-paginated in one query: the cursor preset's sort values come
 * from a subquery. Non-archived presets unless `archived` is true. Only an
 * empty page checks the cursor, to tell the end of the list from a cursor
 * naming no preset of the organization (400).
 */
export async function listBoxPresets(
  db: Kysely<Database>,
  organizationId: string,
  query: BoxPresetListQuery,
): Promise<Page<BoxPresetRead>> {
  const { cursor } = query;
  const rows = await db
    .selectFrom('box_presets')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .$if(!query.archived, (qb) => qb.where('archived_at', 'is', null))
    .$if(cursor !== undefined, (qb) =>
      qb.where(
        sql<SqlBool>`(box_presets.sort_order, box_presets.name, box_presets.id) > (
          select cursor_preset.sort_order, cursor_preset.name, cursor_preset.id
          from box_presets as cursor_preset
          where cursor_preset.organization_id = ${organizationId} and cursor_preset.id = ${cursor}
        )`,
      ),
    )
    .orderBy('sort_order')
    .orderBy('name')
    .orderBy('id')
    .limit(query.limit + 1)
    .execute();
  if (rows.length === 0 && cursor !== undefined) {
    const known = await db
      .selectFrom('box_presets')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', cursor)
      .executeTakeFirst();
    if (!known) throw AppError.validation([{ path: 'cursor', message: 'does not name a box preset' }]);
  }
  const page = toPage(rows, query.limit);
  return { data: page.data.map(toBoxPresetRead), nextCursor: page.nextCursor };
}
