import type { Database } from '@commerce/db';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';

/**
 * The order statuses a merchant reaches only by moving an order out of
 * `PENDING` (the status table of docs/orders.md): the merchant has confirmed it.
 */
export const MERCHANT_CONFIRMED_ORDER_STATUSES = ['CONFIRMED', 'PROCESSING', 'COMPLETED'] as const;

/**
 * Which of the orders placed with a customer's email their account shows.
 * Anyone can send `POST /public/orders` with any email, so a legacy order is
 * shown only once the merchant has confirmed it (`CONFIRMED`, `PROCESSING`
 * or `COMPLETED`; a legacy order cancelled is not shown, since cancelling
 * from `PENDING` is how a merchant turns away an order that is not real).
 * Orders from other sources (checkout) are shown as they are. The source is
 * read from the sales record by its primary key, one lookup per order the
 * email index yields.
 */
export function shownInCustomerAccount(eb: ExpressionBuilder<Database, 'orders'>): Expression<SqlBool> {
  return eb.or([
    eb('orders.status', 'in', MERCHANT_CONFIRMED_ORDER_STATUSES),
    eb.exists(
      eb
        .selectFrom('sales_records')
        .select(sql<number>`1`.as('one'))
        .whereRef('sales_records.organization_id', '=', 'orders.organization_id')
        .whereRef('sales_records.id', '=', 'orders.sales_record_id')
        .where('sales_records.source', '<>', 'LEGACY_ORDER'),
    ),
  ]);
}
