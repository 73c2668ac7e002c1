import type { Database } from '@commerce/db';
import { enqueueWebhookEvent } from '@commerce/notifications/webhooks';
import { type Kysely, sql } from 'kysely';
import { toVariantRead } from './variant-read.ts';

/** The store's low-stock level when its settings name none (the `notifications.lowStockThreshold` default). */
export const DEFAULT_LOW_STOCK_THRESHOLD = 5;

/**
 * Queues a `stock.low` webhook (docs/webhooks.md) for each tracked variant whose stock a decrement
 * moved from above the store's low-stock threshold to at or below it: once per crossing, not on
 * every sale below it. The threshold is the store-wide `notifications.lowStockThreshold` setting
 * (default 5), the one the low-stock email names. Call in the transaction of the decrement.
 */
export async function emitLowStockCrossings(
  trx: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  changes: readonly { variantId: string; before: number; after: number }[],
): Promise<void> {
  if (changes.length === 0) return;
  const settings = await trx
    .selectFrom('organization_settings')
    .select(sql<number | null>`(notifications->>'lowStockThreshold')::int`.as('threshold'))
    .where('organization_id', '=', scope.organizationId)
    .executeTakeFirst();
  const threshold = settings?.threshold ?? DEFAULT_LOW_STOCK_THRESHOLD;
  for (const change of changes) {
    if (!(change.before > threshold && change.after <= threshold)) continue;
    await enqueueWebhookEvent(trx, {
      organizationId: scope.organizationId,
      type: 'stock.low',
      objectId: change.variantId,
      data: async () =>
        toVariantRead(
          await trx
            .selectFrom('variants')
            .selectAll()
            .where('organization_id', '=', scope.organizationId)
            .where('id', '=', change.variantId)
            .executeTakeFirstOrThrow(),
        ),
      at: scope.at,
    });
  }
}
