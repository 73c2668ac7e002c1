import type { Database, OrganizationSettings } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  SETTINGS_CATEGORIES,
  SETTINGS_DEFAULTS,
  SETTINGS_KEY_NAMES,
  type SettingsCategory,
  type SettingsRead,
  type StoredCategory,
} from './schemas.ts';

/** The jsonb column that stores each category. */
export const SETTINGS_COLUMNS = {
  businessProfile: 'business_profile',
  checkoutSettings: 'checkout_settings',
  apiSettings: 'api_settings',
  notifications: 'notifications',
} as const satisfies Record<SettingsCategory, keyof OrganizationSettings>;

export type StoredSettings = Record<SettingsCategory, StoredCategory>;

export function storedSettingsOf(row: OrganizationSettings): StoredSettings {
  const stored = {} as StoredSettings;
  for (const category of SETTINGS_CATEGORIES) {
    stored[category] = (row[SETTINGS_COLUMNS[category]] ?? {}) as StoredCategory;
  }
  return stored;
}

/** The read of stored settings: the known keys that are set, over the defaults. */
export function toSettingsRead(stored: StoredSettings): SettingsRead {
  const read: Record<string, StoredCategory> = {};
  for (const category of SETTINGS_CATEGORIES) {
    const values: StoredCategory = { ...SETTINGS_DEFAULTS[category] };
    for (const name of SETTINGS_KEY_NAMES[category]) {
      const value = stored[category][name];
      if (value !== undefined && value !== null) values[name] = value;
    }
    read[category] = values;
  }
  return read as SettingsRead;
}

/**
 * Creates the organization's settings row if it has none. Concurrent callers
 * race on the primary key: exactly one row is inserted, the others do nothing.
 */
export async function ensureSettingsRow(
  db: Kysely<Database>,
  organizationId: string,
  at: Date,
): Promise<OrganizationSettings | undefined> {
  return db
    .insertInto('organization_settings')
    .values({
      organization_id: organizationId,
      business_profile: '{}',
      checkout_settings: '{}',
      api_settings: '{}',
      notifications: '{}',
      created_at: at,
      updated_at: at,
    })
    .onConflict((conflict) => conflict.column('organization_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}
