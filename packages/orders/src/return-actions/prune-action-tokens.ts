import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';

/** How long an expired action token is kept (its recorded result, for support questions) before it is deleted. */
export const ACTION_TOKEN_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Deletes action tokens that expired more than ACTION_TOKEN_RETENTION_MS ago,
 * in every organization; for the worker's schedule. An expired token already
 * answers the neutral 404, and the return it made keeps its own record.
 */
export async function pruneActionTokens(db: Kysely<Database>, at: Date): Promise<number> {
  const result = await db
    .deleteFrom('action_tokens')
    .where('expires_at', '<=', new Date(at.getTime() - ACTION_TOKEN_RETENTION_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
