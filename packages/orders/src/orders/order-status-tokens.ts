import { AppError, hashToken, isTokenOf, newToken } from '@commerce/core';
import type { Database, Order } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findOrder } from './order-read.ts';

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
 * The order an `o1_` token shows (read by the customer without notes, with its
 * shipments: `getOrderByStatusToken` of `@commerce/fulfillment`). The token alone
 * names the order and its organization; a malformed or unknown token is the
 * same neutral 404.
 */
export async function findOrderByStatusToken(db: Kysely<Database>, token: string): Promise<Order> {
  if (!isTokenOf('orderStatus', token)) throw AppError.notFound('Order not found');
  const row = await db
    .selectFrom('order_status_tokens')
    .select(['organization_id', 'order_id'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) throw AppError.notFound('Order not found');
  return findOrder(db, row.organization_id, row.order_id);
}
