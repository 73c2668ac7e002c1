import { hashToken, newToken } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type CustomerEmailConfig, customerLink } from '@commerce/notifications';
import type { Kysely } from 'kysely';

/**
 * Issues one unsubscribe link per subscription for an email about to be
 * queued: a fresh `u1_` token whose hash is stored, so the link of every
 * earlier email keeps working. The raw token lives only in the email.
 */
export async function issueUnsubscribeLinks(
  db: Kysely<Database>,
  config: CustomerEmailConfig,
  scope: { organizationId: string; at: Date },
  subscriptionIds: readonly string[],
): Promise<string[]> {
  if (subscriptionIds.length === 0) return [];
  const tokens = subscriptionIds.map(() => newToken('unsubscribe'));
  await db
    .insertInto('email_unsubscribe_tokens')
    .values(
      subscriptionIds.map((subscriptionId, index) => ({
        token_hash: hashToken(tokens[index]!),
        organization_id: scope.organizationId,
        subscription_type: 'STOCK_NOTIFICATION' as const,
        subscription_id: subscriptionId,
        created_at: scope.at,
      })),
    )
    .execute();
  return tokens.map((token) => customerLink(config, `/email/unsubscribe?token=${token}`));
}
