import type { Page } from '@commerce/core';
import type { Database, Order } from '@commerce/db';
import {
  type CustomerOrderRead,
  findOrder,
  findOrderByStatusToken,
  listCustomerAccountOrderReads,
  type PublicOrderListQuery,
  readPublicOrder,
} from '@commerce/orders';
import type { Kysely } from 'kysely';
import { shipmentsOfRecords } from '../fulfillments/shipments.ts';

/**
 * The customer's reads of orders: the order's public read (no notes) with its
 * shipments and ship-to address attached. Orders answer the order, fulfillment its shipments; this
 * is where the two meet.
 */
async function readCustomerOrder(
  db: Kysely<Database>,
  organizationId: string,
  order: Order,
): Promise<CustomerOrderRead> {
  const [read, shipments] = await Promise.all([
    readPublicOrder(db, organizationId, order),
    shipmentsOfRecords(db, organizationId, [order.sales_record_id]),
  ]);
  return {
    ...read,
    shipments: shipments.get(order.sales_record_id)!,
    shippingAddress: order.shipping_address,
  };
}

/** A customer's read (account views): the public read plus its shipments; the caller has checked ownership. */
export async function getCustomerOrder(
  db: Kysely<Database>,
  organizationId: string,
  orderId: string,
): Promise<CustomerOrderRead> {
  return readCustomerOrder(db, organizationId, await findOrder(db, organizationId, orderId));
}

/** The order an `o1_` token shows, read as the customer reads it; a malformed or unknown token is a neutral 404. */
export async function getOrderByStatusToken(db: Kysely<Database>, token: string): Promise<CustomerOrderRead> {
  const order = await findOrderByStatusToken(db, token);
  return readCustomerOrder(db, order.organization_id, order);
}

/**
 * A customer's account list (the orders `shownInCustomerAccount` lets them
 * see, as the public list projects them), each with its shipments.
 */
export async function listCustomerAccountOrders(
  db: Kysely<Database>,
  organizationId: string,
  query: PublicOrderListQuery & { email: string },
): Promise<Page<CustomerOrderRead>> {
  const page = await listCustomerAccountOrderReads(db, organizationId, query);
  const shipments = await shipmentsOfRecords(
    db,
    organizationId,
    page.data.map((entry) => entry.salesRecordId),
  );
  return {
    data: page.data.map((entry) => ({
      ...entry.order,
      shipments: shipments.get(entry.salesRecordId)!,
      shippingAddress: entry.shippingAddress,
    })),
    nextCursor: page.nextCursor,
  };
}
