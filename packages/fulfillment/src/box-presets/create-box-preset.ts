import { newId } from '@commerce/core';
import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  ACTIVE_NAME_INDEX,
  assertActivePresetRoom,
  boxPresetNameTaken,
  lockTenantBoxPresets,
  toBoxPresetRead,
} from './box-preset-read.ts';
import type { BoxPresetRead, BoxPresetWriteContext, CreateBoxPresetInput } from './schemas.ts';

/**
 * Creates a box preset at revision 1. Under the tenant's box-preset lock the
 * name must be free among non-archived presets (`409 BOX_PRESET_NAME_TAKEN`)
 * and fewer than 200 may be non-archived (`409 BOX_PRESET_LIMIT_REACHED`); the
 * partial unique index backs the name rule. Audited as `box_preset.created`.
 */
export async function createBoxPreset(
  db: Kysely<Database>,
  ctx: BoxPresetWriteContext,
  input: CreateBoxPresetInput,
): Promise<BoxPresetRead> {
  const id = newId('box', ctx.at);
  try {
    return await inTransaction(db, async (trx) => {
      await lockTenantBoxPresets(trx, ctx.organizationId);
      await assertActivePresetRoom(trx, ctx.organizationId, { name: input.name, addsActive: true });
      const row = await trx
        .insertInto('box_presets')
        .values({
          organization_id: ctx.organizationId,
          id,
          name: input.name,
          inner_length_mm: input.innerLengthMm,
          inner_width_mm: input.innerWidthMm,
          inner_height_mm: input.innerHeightMm,
          outer_length_mm: input.outerLengthMm ?? null,
          outer_width_mm: input.outerWidthMm ?? null,
          outer_height_mm: input.outerHeightMm ?? null,
          tare_weight_grams: input.tareWeightGrams,
          max_load_grams: input.maxLoadGrams ?? null,
          sort_order: input.sortOrder ?? 0,
          revision: 1,
          archived_at: null,
          created_at: ctx.at,
          updated_at: ctx.at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'box_preset.created',
        targetType: 'box_preset',
        targetId: id,
        metadata: { boxPresetId: id },
        at: ctx.at,
      });
      return toBoxPresetRead(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, ACTIVE_NAME_INDEX)) throw boxPresetNameTaken();
    throw error;
  }
}
