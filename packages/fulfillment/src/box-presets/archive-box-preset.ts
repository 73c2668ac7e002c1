import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  ACTIVE_NAME_INDEX,
  assertActivePresetRoom,
  boxPresetNameTaken,
  findBoxPresetRow,
  lockTenantBoxPresets,
  toBoxPresetRead,
} from './box-preset-read.ts';
import type { BoxPresetRead, BoxPresetWriteContext } from './schemas.ts';

/**
 * Archives a preset: it stops being a candidate of the recommendation and
 * frees its name and its place under the limit. Idempotent: an archived preset
 * is answered unchanged and nothing is recorded. Audited as `box_preset.archived`.
 */
export function archiveBoxPreset(
  db: Kysely<Database>,
  ctx: BoxPresetWriteContext,
  presetId: string,
): Promise<BoxPresetRead> {
  return setBoxPresetArchived(db, ctx, presetId, true);
}

/**
 * Restores an archived preset, under the tenant's box-preset lock: its name
 * must be free again (`409 BOX_PRESET_NAME_TAKEN`) and fewer than 200 may be
 * non-archived (`409 BOX_PRESET_LIMIT_REACHED`). Idempotent like archive.
 * Audited as `box_preset.restored`.
 */
export function restoreBoxPreset(
  db: Kysely<Database>,
  ctx: BoxPresetWriteContext,
  presetId: string,
): Promise<BoxPresetRead> {
  return setBoxPresetArchived(db, ctx, presetId, false);
}

async function setBoxPresetArchived(
  db: Kysely<Database>,
  ctx: BoxPresetWriteContext,
  presetId: string,
  archive: boolean,
): Promise<BoxPresetRead> {
  try {
    return await inTransaction(db, async (trx) => {
      if (!archive) await lockTenantBoxPresets(trx, ctx.organizationId);
      const row = await findBoxPresetRow(trx, ctx.organizationId, presetId, 'update');
      if ((row.archived_at !== null) === archive) return toBoxPresetRead(row);
      if (!archive) {
        await assertActivePresetRoom(trx, ctx.organizationId, { name: row.name, addsActive: true });
      }
      const updated = await trx
        .updateTable('box_presets')
        .set({ archived_at: archive ? ctx.at : null, updated_at: ctx.at })
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', presetId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: archive ? 'box_preset.archived' : 'box_preset.restored',
        targetType: 'box_preset',
        targetId: presetId,
        metadata: { boxPresetId: presetId },
        at: ctx.at,
      });
      return toBoxPresetRead(updated);
    });
  } catch (error) {
    if (isUniqueViolation(error, ACTIVE_NAME_INDEX)) throw boxPresetNameTaken();
    throw error;
  }
}
