import { AppError, newId } from '@commerce/core';
import { type Database, inTransaction, type StockSubscription } from '@commerce/db';
import { type CustomerEmailConfig, customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import { type Kysely, sql } from 'kysely';
import type { StockSubscriptionRead, SubscribeToStockInput } from './schemas.ts';
import { issueUnsubscribeLinks } from './unsubscribe-links.ts';

export interface StockNotificationScope {
  organizationId: string;
  at: Date;
  email: CustomerEmailConfig;
}

/** How the emails name the awaited product when the signup is for any variant. */
export const ANY_VARIANT_NAME = 'any option';

/**
 * A shopper's back-in-stock signup for a visible item (ACTIVE, not archived;
 * anything else is a neutral 404), optionally for one of its non-archived
 * variants. Idempotent per (item, variant, email), decided by the unique
 * index so concurrent signups make one row: a repeat returns the existing
 * row. A fresh or still-subscribed signup, or one already notified (which
 * becomes ACTIVE again), queues STOCK_NOTIFICATION_CONFIRMATION in the same
 * transaction; an opted-out row stays UNSUBSCRIBED and sends nothing.
 */
export async function subscribeToStock(
  db: Kysely<Database>,
  scope: StockNotificationScope,
  itemId: string,
  input: SubscribeToStockInput,
): Promise<StockSubscriptionRead> {
  return inTransaction(db, async (trx) => {
    const item = await trx
      .selectFrom('items')
      .select(['id', 'slug', 'name'])
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', itemId)
      .where('status', '=', 'ACTIVE')
      .where('archived_at', 'is', null)
      .executeTakeFirst();
    if (!item) throw AppError.notFound('Item not found');

    let variantName = ANY_VARIANT_NAME;
    if (input.variantId !== undefined) {
      const variant = await trx
        .selectFrom('variants')
        .select('name')
        .where('organization_id', '=', scope.organizationId)
        .where('item_id', '=', itemId)
        .where('id', '=', input.variantId)
        .where('archived_at', 'is', null)
        .executeTakeFirst();
      if (!variant) {
        throw AppError.validation([{ path: 'variantId', message: 'does not name a variant of this item' }]);
      }
      variantName = variant.name;
    }

    const { rows } = await sql<StockSubscription>`
      insert into stock_subscriptions (organization_id, id, item_id, variant_id, email, status, created_at, updated_at)
      values (${scope.organizationId}, ${newId('stk', scope.at)}, ${itemId}, ${input.variantId ?? null},
              ${input.email}, 'ACTIVE', ${scope.at}, ${scope.at})
      on conflict (organization_id, item_id, coalesce(variant_id, ''), email) do update
        set status = case when stock_subscriptions.status = 'NOTIFIED' then 'ACTIVE' else stock_subscriptions.status end,
            updated_at = case when stock_subscriptions.status = 'NOTIFIED' then excluded.updated_at
                              else stock_subscriptions.updated_at end
      returning *`.execute(trx);
    const subscription = rows[0]!;

    if (subscription.status === 'ACTIVE') {
      const [unsubscribe] = await issueUnsubscribeLinks(trx, scope.email, scope, [subscription.id]);
      await enqueueTemplatedEmail(trx, {
        organizationId: scope.organizationId,
        type: 'STOCK_NOTIFICATION_CONFIRMATION',
        // The address as the shopper typed it this time; the row keeps the first spelling.
        to: input.email,
        values: { 'item.name': item.name, 'variant.name': variantName },
        links: { action: customerLink(scope.email, `/products/${item.slug}`), unsubscribe: unsubscribe! },
        emailFrom: scope.email.emailFrom,
        metadata: { subscriptionId: subscription.id, itemId },
        at: scope.at,
      });
    }
    return toStockSubscriptionRead(subscription);
  });
}

export function toStockSubscriptionRead(row: StockSubscription): StockSubscriptionRead {
  return {
    id: row.id,
    itemId: row.item_id,
    variantId: row.variant_id,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
