import { type Kysely, sql } from 'kysely';

/**
 * A per-item low-stock level (docs/catalog.md "Low-stock threshold"): the stock at or under which
 * a variant of the item is low and a `stock.low` webhook leaves. Null (every existing item) means
 * the store's `notifications.lowStockThreshold` setting applies, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('items')
    .addColumn('low_stock_threshold', 'integer', (col) =>
      col.check(sql`low_stock_threshold between 0 and 1000000`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('items').dropColumn('low_stock_threshold').execute();
}
