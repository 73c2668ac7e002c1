import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { SettingsRead } from './schemas.ts';
import { ensureSettingsRow, storedSettingsOf, toSettingsRead } from './settings-row.ts';

/**
 * The organization's settings, with defaults for unset keys. The first read
 * creates the row (`insert … on conflict do nothing`), so this never fails
 * for lack of one.
 */
export async function getSettings(
  db: Kysely<Database>,
  organizationId: string,
  at: Date,
): Promise<SettingsRead> {
  const existing = await db
    .selectFrom('organization_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (existing) return toSettingsRead(storedSettingsOf(existing));

  const created = await ensureSettingsRow(db, organizationId, at);
  // A concurrent first read inserted it instead; it is committed once our insert returns.
  const row =
    created ??
    (await db
      .selectFrom('organization_settings')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow());
  return toSettingsRead(storedSettingsOf(row));
}
