import { AppError, keysetAfter, type Page } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findCustomerOrder } from './customer-orders.ts';
import { assessReturnEligibility } from './eligibility.ts';
import { readReturn, readReturns, selectReturns } from './return-read.ts';
import type {
  CustomerOrderKey,
  OrderReturns,
  ReturnCustomer,
  ReturnListQuery,
  ReturnPageQuery,
  ReturnRead,
} from './schemas.ts';

/**
 * One page of the organization's returns, newest first (createdAt, then id,
 * both descending: `returns_list_idx`, or the status or order index when
 * filtered), keyset-paginated by id; a cursor that names no return of the
 * organization is 400. Two queries: the returns (with their order's
 * reference and number), then all their lines.
 */
async function returnPage(
  db: Kysely<Database>,
  organizationId: string,
  query: Partial<ReturnListQuery> & ReturnPageQuery,
): Promise<Page<ReturnRead>> {
  let cursorRow: { created_at: Date; id: string } | undefined;
  if (query.cursor !== undefined) {
    cursorRow = await db
      .selectFrom('returns')
      .select(['created_at', 'id'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', query.cursor)
      .$if(query.orderId !== undefined, (qb) => qb.where('order_id', '=', query.orderId!))
      .executeTakeFirst();
    if (!cursorRow) throw AppError.validation([{ path: 'cursor', message: 'does not name a return' }]);
  }
  const rows = await selectReturns(db, organizationId)
    .$if(query.status !== undefined, (qb) => qb.where('returns.status', '=', query.status!))
    .$if(query.orderId !== undefined, (qb) => qb.where('returns.order_id', '=', query.orderId!))
    // Through the order's email index (`orders_email_idx`), then each order's returns (`returns_order_idx`).
    .$if(query.email !== undefined, (qb) => qb.where('orders.customer_email', '=', query.email!))
    .$if(cursorRow !== undefined, (qb) =>
      qb.where((eb) =>
        keysetAfter(eb, [
          { column: 'returns.created_at', direction: 'desc', value: cursorRow!.created_at },
          { column: 'returns.id', direction: 'desc', value: cursorRow!.id },
        ]),
      ),
    )
    .orderBy('returns.created_at', 'desc')
    .orderBy('returns.id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const shown = rows.slice(0, query.limit);
  return {
    data: await readReturns(db, organizationId, shown),
    nextCursor: rows.length > query.limit ? shown[shown.length - 1]!.id : null,
  };
}

/** The merchant list: filters by status, order and customer email. */
export async function listReturns(
  db: Kysely<Database>,
  organizationId: string,
  query: ReturnListQuery,
): Promise<Page<ReturnRead>> {
  return returnPage(db, organizationId, query);
}

export async function getReturn(
  db: Kysely<Database>,
  organizationId: string,
  returnId: string,
): Promise<ReturnRead> {
  return readReturn(db, organizationId, returnId);
}

/**
 * The customer's return activity on one of their orders: its returns, newest
 * first and keyset-paginated, and what can be returned now (read without the
 * order's lock: a snapshot, judged again when a return is requested).
 */
export async function listOrderReturns(
  db: Kysely<Database>,
  scope: { customer: ReturnCustomer; returnWindowDays: number; at: Date },
  key: CustomerOrderKey,
  query: ReturnPageQuery,
): Promise<OrderReturns> {
  const order = await findCustomerOrder(db, scope.customer, key);
  const page = await returnPage(db, scope.customer.organizationId, { ...query, orderId: order.id });
  const { windowEnd: _windowEnd, ...eligibility } = await assessReturnEligibility(
    db,
    order,
    scope.returnWindowDays,
    scope.at,
  );
  return { ...page, eligibility };
}
