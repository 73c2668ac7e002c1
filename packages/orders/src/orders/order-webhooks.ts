import type { Database, Order } from '@commerce/db';
import { enqueueWebhookEvent } from '@commerce/notifications/webhooks';
import type { Kysely } from 'kysely';
import { readOrder } from './order-read.ts';

/**
 * Queues an order webhook (docs/webhooks.md "Events") in the caller's transaction, with the order as
 * `GET /merchant/orders/{id}` reads it, read only when an endpoint is subscribed.
 */
export async function emitOrderEvent(
  trx: Kysely<Database>,
  type: 'order.created' | 'order.paid' | 'order.cancelled' | 'order.refunded',
  order: Order,
  at: Date,
): Promise<void> {
  await enqueueWebhookEvent(trx, {
    organizationId: order.organization_id,
    type,
    objectId: order.id,
    data: () => readOrder(trx, order.organization_id, order),
    at,
  });
}
