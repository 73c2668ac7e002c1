import { AppError, type Page } from '@commerce/core';
import type { Database } from '@commerce/db';
import { getCustomerOrder, listCustomerAccountOrders } from '@commerce/fulfillment';
import { type CustomerOrderRead, shownInCustomerAccount } from '@commerce/orders';
import type { Kysely } from 'kysely';
import type { CustomerOrderListQuery } from './schemas.ts';

/** The customer whose orders these are: orders are theirs when placed with their verified email. */
export interface OrderOwner {
  organizationId: string;
  email: string;
}

const ORDER_REFERENCE = /^or1_[0-9a-f]{32}$/;
const ORDER_NUMBER = /^[1-9][0-9]{0,14}$/;
const notFound = () => AppError.notFound('Order not found');

/**
 * The customer's orders (customer email equal to their verified email,
 * case-insensitively: citext), newest first, without merchant notes. A
 * legacy order (anyone may place one with any email) shows only once the
 * merchant has confirmed it (`shownInCustomerAccount`). Each carries its
 * shipments (`shipments[]`). A cursor that names no order of theirs is 400.
 */
export async function listCustomerOrders(
  db: Kysely<Database>,
  owner: OrderOwner,
  query: CustomerOrderListQuery,
): Promise<Page<CustomerOrderRead>> {
  if (query.cursor !== undefined && !(await ownedOrderId(db, owner, 'id', query.cursor))) {
    throw AppError.validation([{ path: 'cursor', message: 'does not name an order' }]);
  }
  return listCustomerAccountOrders(db, owner.organizationId, { ...query, email: owner.email });
}

/** Unknown, malformed, another store's, another customer's and unconfirmed legacy orders are the same 404. */
export async function getCustomerOrderByReference(
  db: Kysely<Database>,
  owner: OrderOwner,
  orderReference: string,
): Promise<CustomerOrderRead> {
  if (!ORDER_REFERENCE.test(orderReference)) throw notFound();
  const id = await ownedOrderId(db, owner, 'order_reference', orderReference);
  if (!id) throw notFound();
  return getCustomerOrder(db, owner.organizationId, id);
}

export async function getCustomerOrderByNumber(
  db: Kysely<Database>,
  owner: OrderOwner,
  orderNumber: string,
): Promise<CustomerOrderRead> {
  if (!ORDER_NUMBER.test(orderNumber)) throw notFound();
  const id = await ownedOrderId(db, owner, 'order_number', Number(orderNumber));
  if (!id) throw notFound();
  return getCustomerOrder(db, owner.organizationId, id);
}

async function ownedOrderId(
  db: Kysely<Database>,
  owner: OrderOwner,
  column: 'id' | 'order_reference' | 'order_number',
  value: string | number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('organization_id', '=', owner.organizationId)
    .where(column, '=', value as never)
    .where('customer_email', '=', owner.email)
    .where(shownInCustomerAccount)
    .executeTakeFirst();
  return row?.id;
}
