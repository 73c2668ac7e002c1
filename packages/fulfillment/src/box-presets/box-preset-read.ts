import { AppError } from '@commerce/core';
import { type BoxPreset, type Database, lockForTransaction } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { type BoxPresetRead, MAX_ACTIVE_BOX_PRESETS } from './schemas.ts';

export const boxPresetNotFound = () => AppError.notFound('Box preset not found');

export const boxPresetNameTaken = () =>
  new AppError('BOX_PRESET_NAME_TAKEN', 'Another non-archived box preset of the organization has this name', {
    field: 'name',
  });

/** The partial unique index on the tenant's non-archived names. */
export const ACTIVE_NAME_INDEX = 'box_presets_active_name_key';

export function toBoxPresetRead(row: BoxPreset): BoxPresetRead {
  return {
    id: row.id,
    name: row.name,
    innerLengthMm: row.inner_length_mm,
    innerWidthMm: row.inner_width_mm,
    innerHeightMm: row.inner_height_mm,
    outerLengthMm: row.outer_length_mm ?? row.inner_length_mm,
    outerWidthMm: row.outer_width_mm ?? row.inner_width_mm,
    outerHeightMm: row.outer_height_mm ?? row.inner_height_mm,
    tareWeightGrams: row.tare_weight_grams,
    maxLoadGrams: row.max_load_grams,
    sortOrder: row.sort_order,
    revision: row.revision,
    archivedAt: row.archived_at === null ? null : new Date(row.archived_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The preset row, locked for update when asked; a missing or foreign preset is the neutral 404. */
export async function findBoxPresetRow(
  db: Kysely<Database>,
  organizationId: string,
  presetId: string,
  lock?: 'update',
): Promise<BoxPreset> {
  const row = await db
    .selectFrom('box_presets')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', presetId)
    .$if(lock === 'update', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw boxPresetNotFound();
  return row;
}

/**
 * Serializes, until the transaction ends, every write of the tenant that can
 * add a non-archived preset or take a name (create, rename, restore): the
 * count and the name check that follow cannot be passed by a concurrent
 * write. A transaction-scoped advisory lock, 64-bit key from SHA-256.
 */
export async function lockTenantBoxPresets(trx: Kysely<Database>, organizationId: string): Promise<void> {
  await lockForTransaction(trx, 'box-presets', organizationId);
}

/**
 * Under `lockTenantBoxPresets`: `409 BOX_PRESET_NAME_TAKEN` when another
 * non-archived preset has the name (case-insensitive), and, when the write
 * adds a non-archived preset, `409 BOX_PRESET_LIMIT_REACHED` at 200. One query
 * on the partial unique index.
 */
export async function assertActivePresetRoom(
  trx: Kysely<Database>,
  organizationId: string,
  check: { name: string; exceptId?: string; addsActive: boolean },
): Promise<void> {
  const row = await trx
    .selectFrom('box_presets')
    .select([
      sql<string | number>`count(*)`.as('active'),
      sql<
        string | number
      >`count(*) filter (where lower(name) = lower(${check.name}) and id <> ${check.exceptId ?? ''})`.as(
        'named',
      ),
    ])
    .where('organization_id', '=', organizationId)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(row.named) > 0) throw boxPresetNameTaken();
  if (check.addsActive && Number(row.active) >= MAX_ACTIVE_BOX_PRESETS) {
    throw new AppError(
      'BOX_PRESET_LIMIT_REACHED',
      `An organization has at most ${MAX_ACTIVE_BOX_PRESETS} non-archived box presets; archive one first`,
      { limit: MAX_ACTIVE_BOX_PRESETS },
    );
  }
}
