import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Runs `run` in a transaction of its own, or in the one `db` already is: a
 * service that a caller may compose into a larger transaction never nests.
 */
export function inTransaction<T>(
  db: Kysely<Database>,
  run: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? run(db) : db.transaction().execute((trx: Transaction<Database>) => run(trx));
}
