import { AppError } from '@commerce/core';
import type { Database, Fulfillment } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { FulfillmentPackageInput, FulfillmentPackageRead } from './schemas.ts';

const atPackage = (field: string, message: string) =>
  AppError.validation([{ path: `package.${field}`, message }]);

/**
 * The package a body names, as a fulfillment stores it: a box
 * preset's outer dimensions (the inner ones where no outer is set) with its
 * current revision, or the custom outer dimensions. A preset id naming none of
 * the tenant's (unknown or foreign) is 400 at `package.boxPresetId`; an
 * archived preset, or a `boxPresetRevision` that is no longer current, is
 * 409 STALE_STATE (refresh the presets). The loaded weight includes the box:
 * below the preset's tare, or above its `maxLoadGrams`, is 400 at
 * `package.loadedWeightGrams`. Nothing here needs a carrier. Planned
 * fulfillments store it; the label quote rates it (and weighs the preset's
 * tare, answered beside it: null for custom dimensions).
 */
export async function resolvePackage(
  db: Kysely<Database>,
  organizationId: string,
  input: FulfillmentPackageInput,
): Promise<FulfillmentPackageRead & { tareWeightGrams: number | null }> {
  if (input.boxPresetId === undefined)
    return {
      boxPresetId: null,
      boxPresetRevision: null,
      lengthMm: input.lengthMm!,
      widthMm: input.widthMm!,
      heightMm: input.heightMm!,
      loadedWeightGrams: input.loadedWeightGrams,
      tareWeightGrams: null,
    };
  const preset = await db
    .selectFrom('box_presets')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', input.boxPresetId)
    .executeTakeFirst();
  if (!preset) throw atPackage('boxPresetId', 'does not name a box preset of the organization');
  if (preset.archived_at !== null)
    throw new AppError('STALE_STATE', 'The box preset is archived', {
      boxPresetId: preset.id,
      archivedAt: new Date(preset.archived_at).toISOString(),
    });
  if (input.boxPresetRevision !== undefined && input.boxPresetRevision !== preset.revision)
    throw new AppError('STALE_STATE', 'The box preset changed since that revision', {
      boxPresetId: preset.id,
      revision: preset.revision,
    });
  if (input.loadedWeightGrams < preset.tare_weight_grams)
    throw atPackage('loadedWeightGrams', `is below the box's own weight (${preset.tare_weight_grams} g)`);
  if (preset.max_load_grams !== null && input.loadedWeightGrams > preset.max_load_grams)
    throw atPackage('loadedWeightGrams', `is above the box's maximum load (${preset.max_load_grams} g)`);
  return {
    boxPresetId: preset.id,
    boxPresetRevision: preset.revision,
    lengthMm: preset.outer_length_mm ?? preset.inner_length_mm,
    widthMm: preset.outer_width_mm ?? preset.inner_width_mm,
    heightMm: preset.outer_height_mm ?? preset.inner_height_mm,
    loadedWeightGrams: input.loadedWeightGrams,
    tareWeightGrams: preset.tare_weight_grams,
  };
}

/** The stored package columns of a resolved package, or of none. */
export function packageColumns(resolved: FulfillmentPackageRead | null) {
  return {
    package_box_preset_id: resolved?.boxPresetId ?? null,
    package_box_preset_revision: resolved?.boxPresetRevision ?? null,
    package_length_mm: resolved?.lengthMm ?? null,
    package_width_mm: resolved?.widthMm ?? null,
    package_height_mm: resolved?.heightMm ?? null,
    package_loaded_weight_grams: resolved?.loadedWeightGrams ?? null,
  };
}

/** The read of a fulfillment's stored package: null when it has none. */
export function packageOf(
  row: Pick<
    Fulfillment,
    | 'package_box_preset_id'
    | 'package_box_preset_revision'
    | 'package_length_mm'
    | 'package_width_mm'
    | 'package_height_mm'
    | 'package_loaded_weight_grams'
  >,
): FulfillmentPackageRead | null {
  if (
    row.package_length_mm === null ||
    row.package_width_mm === null ||
    row.package_height_mm === null ||
    row.package_loaded_weight_grams === null
  )
    return null;
  return {
    boxPresetId: row.package_box_preset_id,
    boxPresetRevision: row.package_box_preset_revision,
    lengthMm: row.package_length_mm,
    widthMm: row.package_width_mm,
    heightMm: row.package_height_mm,
    loadedWeightGrams: row.package_loaded_weight_grams,
  };
}
