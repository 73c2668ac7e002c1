import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';

/**
 * Whether `email` bought the item: an order of the organization placed with
 * that email (case-insensitive) whose sales record has a line of the item,
 * and that is a real purchase. Anyone can place a legacy `POST /public/orders`
 * with any email and any price, so only two kinds count:
 * - an order paid through checkout (`source` CHECKOUT, payment `PAID`) and not
 *   cancelled: the price was the catalog's and the money was taken;
 * - a legacy order the merchant moved to `COMPLETED`.
 * A free checkout (payment `NOT_REQUIRED`) is not "paid" and does not count.
 * Reads the orders tables directly (the orders package depends on the
 * catalog, not the reverse); served by `orders_email_idx`, the sales record's
 * primary key and `sales_record_lines_item_idx`.
 */
export async function hasPurchasedItem(
  db: Kysely<Database>,
  scope: { organizationId: string; itemId: string; email: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .innerJoin('sales_records', (join) =>
      join
        .onRef('sales_records.organization_id', '=', 'orders.organization_id')
        .onRef('sales_records.id', '=', 'orders.sales_record_id'),
    )
    .innerJoin('sales_record_lines', (join) =>
      join
        .onRef('sales_record_lines.organization_id', '=', 'orders.organization_id')
        .onRef('sales_record_lines.sales_record_id', '=', 'orders.sales_record_id'),
    )
    .select(sql<number>`1`.as('found'))
    .where('orders.organization_id', '=', scope.organizationId)
    .where('orders.customer_email', '=', scope.email)
    .where('sales_record_lines.item_id', '=', scope.itemId)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('sales_records.source', '=', 'CHECKOUT'),
          eb('orders.payment_status', '=', 'PAID'),
          eb('orders.status', '<>', 'CANCELLED'),
        ]),
        eb.and([eb('sales_records.source', '=', 'LEGACY_ORDER'), eb('orders.status', '=', 'COMPLETED')]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
