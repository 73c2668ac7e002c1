import { AppError } from '@commerce/core';
import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely, UpdateObject } from 'kysely';
import {
  ACTIVE_NAME_INDEX,
  assertActivePresetRoom,
  boxPresetNameTaken,
  findBoxPresetRow,
  lockTenantBoxPresets,
  toBoxPresetRead,
} from './box-preset-read.ts';
import {
  BOX_AXES,
  type BoxPresetChanges,
  type BoxPresetRead,
  type BoxPresetWriteContext,
} from './schemas.ts';

const COLUMN_OF = {
  innerLengthMm: 'inner_length_mm',
  innerWidthMm: 'inner_width_mm',
  innerHeightMm: 'inner_height_mm',
  outerLengthMm: 'outer_length_mm',
  outerWidthMm: 'outer_width_mm',
  outerHeightMm: 'outer_height_mm',
  tareWeightGrams: 'tare_weight_grams',
  maxLoadGrams: 'max_load_grams',
  sortOrder: 'sort_order',
} as const;

/**
 * Applies a partial change under the preset's row lock (and, for a name, the
 * tenant's box-preset lock). `expectedRevision`, when sent, must be the
 * present revision (`409 STALE_STATE`, even for a change that changes
 * nothing). Only fields whose value changes are written; then `revision` goes
 * up by one and `box_preset.updated` records `{ boxPresetId, fields }`. An
 * outer dimension set to null follows the inner one again; one kept must stay
 * at least the new inner one (400 naming it). Archived presets can be edited;
 * their name is checked when they are restored.
 */
export async function updateBoxPreset(
  db: Kysely<Database>,
  ctx: BoxPresetWriteContext,
  presetId: string,
  changes: BoxPresetChanges,
): Promise<BoxPresetRead> {
  try {
    return await inTransaction(db, async (trx) => {
      const renames = changes.name !== undefined;
      // The tenant lock comes before the row lock, as in create and restore, so the two never deadlock.
      if (renames) await lockTenantBoxPresets(trx, ctx.organizationId);
      const row = await findBoxPresetRow(trx, ctx.organizationId, presetId, 'update');
      if (changes.expectedRevision !== undefined && changes.expectedRevision !== row.revision) {
        throw new AppError('STALE_STATE', 'The box preset changed since that revision; read it again', {
          revision: row.revision,
        });
      }

      const set: UpdateObject<Database, 'box_presets'> = {};
      const fields: string[] = [];
      if (changes.name !== undefined && changes.name !== row.name) {
        fields.push('name');
        set.name = changes.name;
      }
      for (const [field, column] of Object.entries(COLUMN_OF) as [keyof typeof COLUMN_OF, string][]) {
        const next = changes[field];
        if (next === undefined || next === row[column as keyof typeof row]) continue;
        fields.push(field);
        (set as Record<string, unknown>)[column] = next;
      }
      if (fields.length === 0) return toBoxPresetRead(row);

      const merged = { ...row, ...set };
      for (const [inner, outer] of BOX_AXES) {
        const innerValue = merged[COLUMN_OF[inner]] as number;
        const outerValue = merged[COLUMN_OF[outer]] as number | null;
        if (outerValue !== null && outerValue < innerValue) {
          throw AppError.validation([{ path: outer, message: `must be at least ${inner}` }]);
        }
      }
      if (fields.includes('name') && row.archived_at === null) {
        await assertActivePresetRoom(trx, ctx.organizationId, {
          name: changes.name!,
          exceptId: presetId,
          addsActive: false,
        });
      }

      const updated = await trx
        .updateTable('box_presets')
        .set((eb) => ({ ...set, revision: eb('revision', '+', 1), updated_at: ctx.at }))
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', presetId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'box_preset.updated',
        targetType: 'box_preset',
        targetId: presetId,
        metadata: { boxPresetId: presetId, fields },
        at: ctx.at,
      });
      return toBoxPresetRead(updated);
    });
  } catch (error) {
    if (isUniqueViolation(error, ACTIVE_NAME_INDEX)) throw boxPresetNameTaken();
    throw error;
  }
}
