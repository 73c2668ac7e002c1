import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findBoxPresetRow, toBoxPresetRead } from './box-preset-read.ts';
import type { BoxPresetRead } from './schemas.ts';

/** A merchant read, archived included; another tenant's or an unknown preset is the neutral 404. */
export async function getBoxPreset(
  db: Kysely<Database>,
  organizationId: string,
  presetId: string,
): Promise<BoxPresetRead> {
  return toBoxPresetRead(await findBoxPresetRow(db, organizationId, presetId));
}
