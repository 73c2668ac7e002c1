import { AppError, hashToken, isTokenOf } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { UnsubscribeResult } from './schemas.ts';

/**
 * Ends the subscription an unsubscribe link names, whatever its state, and
 * says what it was about. Repeating it answers the same. A malformed,
 * unknown or deleted token is one neutral 404. The token alone identifies
 * the store: no tenant header is needed.
 */
export async function unsubscribeByToken(
  db: Kysely<Database>,
  token: string,
  at: Date,
): Promise<UnsubscribeResult> {
  if (!isTokenOf('unsubscribe', token)) throw linkNotFound();
  const link = await db
    .selectFrom('email_unsubscribe_tokens as t')
    .innerJoin('stock_subscriptions as s', (join) =>
      join.onRef('s.organization_id', '=', 't.organization_id').onRef('s.id', '=', 't.subscription_id'),
    )
    .innerJoin('items as i', (join) =>
      join.onRef('i.organization_id', '=', 's.organization_id').onRef('i.id', '=', 's.item_id'),
    )
    .select(['t.organization_id', 's.id', 's.status', 'i.name'])
    .where('t.token_hash', '=', hashToken(token))
    .where('t.subscription_type', '=', 'STOCK_NOTIFICATION')
    .executeTakeFirst();
  if (!link) throw linkNotFound();
  if (link.status !== 'UNSUBSCRIBED') {
    await db
      .updateTable('stock_subscriptions')
      .set({ status: 'UNSUBSCRIBED', updated_at: at })
      .where('organization_id', '=', link.organization_id)
      .where('id', '=', link.id)
      .execute();
  }
  return { status: 'UNSUBSCRIBED', subscriptionType: 'STOCK_NOTIFICATION', itemName: link.name };
}

function linkNotFound(): AppError {
  return AppError.notFound('Unsubscribe link not found');
}
