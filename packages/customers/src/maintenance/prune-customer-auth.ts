import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';

/** How long spent or expired sign-in challenges are kept (for support questions) before they are deleted. */
export const CHALLENGE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes sessions past their expiry and sign-in challenges a day past
 * theirs, in every organization; for the worker's schedule. Returns how many
 * rows of each went.
 */
export async function pruneCustomerAuth(
  db: Kysely<Database>,
  at: Date,
): Promise<{ sessions: number; challenges: number }> {
  const sessions = await db.deleteFrom('customer_sessions').where('expires_at', '<=', at).executeTakeFirst();
  const challenges = await db
    .deleteFrom('customer_sign_in_challenges')
    .where('expires_at', '<=', new Date(at.getTime() - CHALLENGE_RETENTION_MS))
    .executeTakeFirst();
  return { sessions: Number(sessions.numDeletedRows), challenges: Number(challenges.numDeletedRows) };
}
