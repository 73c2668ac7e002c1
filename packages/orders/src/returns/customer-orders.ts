import { AppError } from '@commerce/core';
import type { Database, Order } from '@commerce/db';
import type { Kysely } from 'kysely';
import { shownInCustomerAccount } from '../orders/customer-account-visibility.ts';
import type { CustomerOrderKey, ReturnCustomer } from './schemas.ts';

const ORDER_REFERENCE = /^or1_[0-9a-f]{32}$/;
const ORDER_NUMBER = /^[1-9][0-9]{0,14}$/;

/**
 * One of the customer's own orders: an order of their organization whose
 * customer email is their verified email (citext: case-insensitive). A
 * malformed, unknown, foreign or other customer's reference or number is the
 * same neutral 404, so a customer cannot tell them apart; so is an order
 * their account does not show (`shownInCustomerAccount`: a legacy order the
 * merchant has not confirmed). Locked for update
 * when asked (a return's quantities are judged under the order's lock).
 */
export async function findCustomerOrder(
  db: Kysely<Database>,
  customer: ReturnCustomer,
  key: CustomerOrderKey,
  lock?: 'update',
): Promise<Order> {
  const byReference = 'orderReference' in key;
  const value = byReference ? key.orderReference : key.orderNumber;
  if (!(byReference ? ORDER_REFERENCE : ORDER_NUMBER).test(value)) throw AppError.notFound('Order not found');
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('organization_id', '=', customer.organizationId)
    .$if(byReference, (qb) => qb.where('order_reference', '=', value))
    .$if(!byReference, (qb) => qb.where('order_number', '=', Number(value)))
    .where('customer_email', '=', customer.email)
    .where(shownInCustomerAccount)
    .$if(lock === 'update', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!order) throw AppError.notFound('Order not found');
  return order;
}

/**
 * The returns section of the order's hosted account page (the page has no returns route of its own):
 * the link of every RETURN_* email.
 */
export function returnsPagePath(order: Pick<Order, 'order_reference' | 'order_number'>): string {
  const address = order.order_reference ?? String(order.order_number);
  return `/account/orders/${address}#returns`;
}
