import { canonicalJson } from '@commerce/core';
import { type AuditActor, type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  SETTINGS_CATEGORIES,
  type SettingsCategory,
  type SettingsRead,
  type StoredCategory,
  type UpdateSettingsInput,
} from './schemas.ts';
import {
  ensureSettingsRow,
  SETTINGS_COLUMNS,
  type StoredSettings,
  storedSettingsOf,
  toSettingsRead,
} from './settings-row.ts';

/**
 * Applies a settings patch: each category sent is shallow-merged into the
 * stored object, a key set to `null` is removed, everything else stays. The
 * merge runs under the row's lock (`select … for update`), so concurrent
 * patches of different keys all survive. `settings.updated` is audited, with
 * only the names of the categories whose stored object changed; a patch that
 * changes nothing writes neither the row nor an audit record. Handed a
 * transaction, it runs in it.
 */
export async function updateSettings(
  db: Kysely<Database>,
  context: { organizationId: string; actor: AuditActor; at: Date },
  patch: UpdateSettingsInput,
): Promise<SettingsRead> {
  const { organizationId, at } = context;
  return inTransaction(db, async (trx) => {
    await ensureSettingsRow(trx, organizationId, at);
    const row = await trx
      .selectFrom('organization_settings')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .forUpdate()
      .executeTakeFirstOrThrow();

    const before = storedSettingsOf(row);
    const after: StoredSettings = { ...before };
    const changed: SettingsCategory[] = [];
    for (const category of SETTINGS_CATEGORIES) {
      const categoryPatch = patch[category];
      if (categoryPatch === undefined) continue;
      const merged = mergeCategory(before[category], categoryPatch);
      if (canonicalJson(merged) === canonicalJson(before[category])) continue;
      after[category] = merged;
      changed.push(category);
    }
    if (changed.length === 0) return toSettingsRead(before);

    const update: Partial<Record<(typeof SETTINGS_COLUMNS)[SettingsCategory], string>> = {};
    for (const category of changed) update[SETTINGS_COLUMNS[category]] = JSON.stringify(after[category]);
    await trx
      .updateTable('organization_settings')
      .set({ ...update, updated_at: at })
      .where('organization_id', '=', organizationId)
      .execute();
    await recordAudit(trx, {
      organizationId,
      actor: context.actor,
      action: 'settings.updated',
      targetType: 'settings',
      targetId: organizationId,
      // Names only: values may hold customer data.
      metadata: { categories: changed },
      at,
    });
    return toSettingsRead(after);
  });
}

/** Shallow merge: a value replaces the stored one (objects and arrays whole), `null` removes the key. */
function mergeCategory(stored: StoredCategory, patch: Record<string, unknown>): StoredCategory {
  const merged: StoredCategory = { ...stored };
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}
