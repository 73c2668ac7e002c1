import { AppError, hashToken, isTokenOf } from '@commerce/core';
import type { ActionToken, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ActionTokenLine } from './schemas.ts';

/**
 * The live `a1_` token of the organization: malformed, unknown, another
 * organization's, revoked and expired tokens are one neutral 404, so a holder
 * learns nothing about a token that does not work. Looked up by its SHA-256
 * only; locked for update when asked (consumption).
 */
export async function findLiveActionToken(
  db: Kysely<Database>,
  organizationId: string,
  token: string,
  at: Date,
  lock?: 'update',
): Promise<ActionToken> {
  if (!isTokenOf('action', token)) throw AppError.notFound('Not found');
  const row = await db
    .selectFrom('action_tokens')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('token_hash', '=', hashToken(token))
    .$if(lock === 'update', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.expires_at.getTime() <= at.getTime())
    throw AppError.notFound('Not found');
  return row;
}

export function tokenLinesOf(row: ActionToken): ActionTokenLine[] {
  return row.eligible_lines as ActionTokenLine[];
}
