import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';

/**
 * Whether `email` bought the item: an order of the organization placed with
 * that email (case-insensitive), not cancelled, paid or needing no payment,
 * whose sales record has a line of the item. Reads the orders tables
 * directly (the orders package depends on the catalog, not the reverse);
 * served by `orders_email_idx` and `sales_record_lines_item_idx`.
 */
export async function hasPurchasedItem(
  db: Kysely<Database>,
  scope: { organizationId: string; itemId: string; email: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .innerJoin('sales_record_lines', (join) =>
      join
        .onRef('sales_record_lines.organization_id', '=', 'orders.organization_id')
        .onRef('sales_record_lines.sales_record_id', '=', 'orders.sales_record_id'),
    )
    .select(sql<number>`1`.as('found'))
    .where('orders.organization_id', '=', scope.organizationId)
    .where('orders.customer_email', '=', scope.email)
    .where('orders.status', '<>', 'CANCELLED')
    .where('orders.payment_status', 'in', ['NOT_REQUIRED', 'PAID'])
    .where('sales_record_lines.item_id', '=', scope.itemId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
