import type { Database } from '@commerce/db';
import { enqueueWebhookEvent } from '@commerce/notifications/webhooks';
import { type Kysely, sql } from 'kysely';
import { toVariantRead } from './variant-read.ts';

/** The store's low-stock level when its settings name none (the `notifications.lowStockThreshold` default). */
export const DEFAULT_LOW_STOCK_THRESHOLD = 5;

/**
 * Queues a `stock.low` webhook (docs/webhooks.md) for each tracked variant whose stock a decrement
 * moved from above its low-stock threshold to at or below it: once per crossing, not on every
 * sale below it. The threshold is the item's `lowStockThreshold` when it has one, else the
 * store-wide `notifications.lowStockThreshold` setting (default 5, the level the low-stock email
 * names), chosen for all the variants in one statement. Call in the transaction of the decrement.
 */
export async function emitLowStockCrossings(
  trx: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  changes: readonly { variantId: string; before: number; after: number }[],
): Promise<void> {
  if (changes.length === 0) return;
  const rows = await trx
    .selectFrom('variants')
    .innerJoin('items', (join) =>
      join
        .onRef('items.organization_id', '=', 'variants.organization_id')
        .onRef('items.id', '=', 'variants.item_id'),
    )
    .select([
      'variants.id',
      sql<number>`coalesce(items.low_stock_threshold, (select (s.notifications->>'lowStockThreshold')::int
        from organization_settings s where s.organization_id = ${scope.organizationId}), ${DEFAULT_LOW_STOCK_THRESHOLD})`.as(
        'threshold',
      ),
    ])
    .where('variants.organization_id', '=', scope.organizationId)
    .where(
      'variants.id',
      'in',
      changes.map((change) => change.variantId),
    )
    .execute();
  const thresholds = new Map(rows.map((row) => [row.id, row.threshold]));
  for (const change of changes) {
    const threshold = thresholds.get(change.variantId);
    if (threshold === undefined || !(change.before > threshold && change.after <= threshold)) continue;
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
