import type { Migration } from 'kysely';
import * as foundation from './2026_11_23_0001_foundation.ts';
import * as administration from './2026_11_23_0002_administration.ts';
import * as catalog from './2026_11_23_0003_catalog.ts';

/** Every migration in order. Bundled builds have no migration folder to scan, so they are listed here. */
export const migrations: Record<string, Migration> = {
  '2026_11_23_0001_foundation': foundation,
  '2026_11_23_0002_administration': administration,
  '2026_11_23_0003_catalog': catalog,
};
