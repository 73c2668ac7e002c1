import { type Kysely, Migrator } from 'kysely';
import { migrations } from './migrations/index.ts';

/**
 * Applies every pending migration; throws with the failing migration's name.
 * `schema` names where the bookkeeping tables live when the database is not
 * in the default schema (test databases), so that another schema's
 * bookkeeping is never mistaken for this one's.
 */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  options: { schema?: string | undefined } = {},
): Promise<void> {
  const migrator = new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
    ...(options.schema ? { migrationTableSchema: options.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
}
