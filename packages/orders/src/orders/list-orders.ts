import { escapeLikePattern } from '@commerce/catalog';
import { AppError, keysetAfter, type Page } from '@commerce/core';
import type { Database, Order } from '@commerce/db';
import { type Kysely, type SqlBool, sql } from 'kysely';
import { shownInCustomerAccount } from './customer-account-visibility.ts';
import { linesOfOrders, toOrderLineRead, toOrderRead, toPublicOrderRead } from './order-read.ts';
import type { OrderListQuery, OrderRead, PublicOrderListQuery, PublicOrderRead } from './schemas.ts';

const ORDER_NUMBER_SEARCH = /^#?(\d{1,15})$/;

/**
 * One page of the organization's orders, newest first (createdAt, then id,
 * both descending: the index `orders_list_idx`, or the filter's own index),
 * keyset-paginated by id. Filters compose. A cursor that names no order of
 * the organization is 400. Two queries: the orders, then all their lines.
 */
async function orderPage(
  db: Kysely<Database>,
  organizationId: string,
  query: Partial<OrderListQuery> & { limit: number },
  options: { customerAccount?: boolean } = {},
): Promise<{ rows: Order[]; lines: Awaited<ReturnType<typeof linesOfOrders>>; nextCursor: string | null }> {
  let cursorRow: { created_at: Date; id: string } | undefined;
  if (query.cursor !== undefined) {
    cursorRow = await db
      .selectFrom('orders')
      .select(['created_at', 'id'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursorRow) throw AppError.validation([{ path: 'cursor', message: 'does not name an order' }]);
  }
  const search = query.search;
  const searchedNumber = search === undefined ? undefined : ORDER_NUMBER_SEARCH.exec(search)?.[1];
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!))
    .$if(query.fulfillmentStatus !== undefined, (qb) =>
      qb.where('fulfillment_status', '=', query.fulfillmentStatus!),
    )
    .$if(query.paymentStatus !== undefined, (qb) => qb.where('payment_status', '=', query.paymentStatus!))
    .$if(query.email !== undefined, (qb) => qb.where('customer_email', '=', query.email!))
    .$if(options.customerAccount === true, (qb) => qb.where(shownInCustomerAccount))
    .$if(searchedNumber !== undefined, (qb) => qb.where('order_number', '=', Number(searchedNumber)))
    .$if(search !== undefined && searchedNumber === undefined, (qb) =>
      qb.where(
        sql<SqlBool>`lower(customer_email::text) like ('%' || ${escapeLikePattern(search!.toLowerCase())} || '%')`,
      ),
    )
    .$if(query.createdFrom !== undefined, (qb) => qb.where('created_at', '>=', query.createdFrom!))
    .$if(query.createdTo !== undefined, (qb) => qb.where('created_at', '<', query.createdTo!))
    .$if(cursorRow !== undefined, (qb) =>
      qb.where((eb) =>
        keysetAfter(eb, [
          { column: 'created_at', direction: 'desc', value: cursorRow!.created_at },
          { column: 'id', direction: 'desc', value: cursorRow!.id },
        ]),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const shown = rows.slice(0, query.limit);
  const lines = await linesOfOrders(db, organizationId, shown);
  return {
    rows: shown,
    lines,
    // The extra row only says that another page exists.
    nextCursor: rows.length > query.limit ? shown[shown.length - 1]!.id : null,
  };
}

/** The merchant list: filters by status, fulfillment and payment status, email, number or email search, dates. */
export async function listOrders(
  db: Kysely<Database>,
  organizationId: string,
  query: OrderListQuery,
): Promise<Page<OrderRead>> {
  const page = await orderPage(db, organizationId, query);
  return {
    data: page.rows.map((row) => toOrderRead(row, page.lines.get(row.sales_record_id)!)),
    nextCursor: page.nextCursor,
  };
}

/** The public list (when the organization turned public order reads on): no notes. */
export async function listPublicOrders(
  db: Kysely<Database>,
  organizationId: string,
  query: PublicOrderListQuery,
): Promise<Page<PublicOrderRead>> {
  const page = await orderPage(db, organizationId, query);
  return {
    data: page.rows.map((row) =>
      toPublicOrderRead(row, page.lines.get(row.sales_record_id)!.map(toOrderLineRead)),
    ),
    nextCursor: page.nextCursor,
  };
}

/** An order of a customer's account list, projected as the public list is, with its sales record. */
export interface CustomerAccountOrder {
  salesRecordId: string;
  order: PublicOrderRead;
  /** The ship-to snapshot, which the customer's reads show and the public read does not. */
  shippingAddress: Order['shipping_address'];
}

/**
 * A customer's account list: the orders placed with their email that
 * `shownInCustomerAccount` lets them see, projected as the public list is.
 * Each names its sales record, so the shipments can be attached
 * (`listCustomerAccountOrders` of `@commerce/fulfillment`).
 */
export async function listCustomerAccountOrderReads(
  db: Kysely<Database>,
  organizationId: string,
  query: PublicOrderListQuery & { email: string },
): Promise<Page<CustomerAccountOrder>> {
  const page = await orderPage(db, organizationId, query, { customerAccount: true });
  return {
    data: page.rows.map((row) => ({
      salesRecordId: row.sales_record_id,
      shippingAddress: row.shipping_address,
      order: toPublicOrderRead(row, page.lines.get(row.sales_record_id)!.map(toOrderLineRead)),
    })),
    nextCursor: page.nextCursor,
  };
}
