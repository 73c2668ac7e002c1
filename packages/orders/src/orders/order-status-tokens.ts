import { AppError, hashToken, isTokenOf, newToken } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findOrder, readCustomerOrder } from './order-read.ts';
import type { CustomerOrderRead } from './schemas.ts';

/** Issues a read-only `o1_` order-status token; only its SHA-256 is stored. Returns the raw token. */
export async function issueOrderStatusToken(
  db: Kysely<Database>,
  scope: { organizationId: string; orderId: string; at: Date },
): Promise<string> {
  const token = newToken('orderStatus');
  await db
    .insertInto('order_status_tokens')
    .values({
      token_hash: hashToken(token),
      organization_id: scope.organizationId,
      order_id: scope.orderId,
      created_at: scope.at,
    })
    .execute();
  return token;
}

/**
 * The order an `o1_` token shows, as a public read (no notes). The token alone
 * names the order and its organization; a malformed or unknown token is the
 * same neutral 404.
 */
export async function getOrderByStatusToken(db: Kysely<Database>, token: string): Promise<CustomerOrderRead> {
  if (!isTokenOf('orderStatus', token)) throw AppError.notFound('Order not found');
  const row = await db
    .selectFrom('order_status_tokens')
    .select(['organization_id', 'order_id'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) throw AppError.notFound('Order not found');
  const order = await findOrder(db, row.organization_id, row.order_id);
  return readCustomerOrder(db, row.organization_id, order);
}
