import { AppError } from '@commerce/core';
import type { Database, Order, SalesRecordLine } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { MerchantOrderLineRead, OrderLineRead, OrderRead, PublicOrderRead } from './schemas.ts';

export function toOrderLineRead(row: SalesRecordLine): OrderLineRead {
  return {
    id: row.id,
    type: row.type,
    itemId: row.item_id,
    variantId: row.variant_id,
    name: row.name,
    quantity: row.quantity,
    unitPriceInCents: row.unit_price_in_cents,
    totalInCents: row.total_in_cents,
  };
}

/** A merchant read of a line: PRODUCT lines add their fulfillment counters, other lines null. */
export function toMerchantOrderLineRead(row: SalesRecordLine): MerchantOrderLineRead {
  const isProduct = row.type === 'PRODUCT';
  return {
    ...toOrderLineRead(row),
    shippedQuantity: isProduct ? row.shipped_quantity : null,
    allocatedQuantity: isProduct ? row.allocated_quantity : null,
    unfulfilledQuantity: isProduct ? row.quantity - row.shipped_quantity : null,
  };
}

export function toPublicOrderRead(row: Order, lines: OrderLineRead[]): PublicOrderRead {
  return {
    id: row.id,
    orderReference: row.order_reference,
    orderNumber: row.order_number,
    status: row.status,
    fulfillmentStatus: row.fulfillment_status,
    paymentStatus: row.payment_status,
    currency: row.currency,
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    customerPhone: row.customer_phone,
    items: lines,
    itemCount: row.item_count,
    subtotalInCents: row.subtotal_in_cents,
    shippingInCents: row.shipping_in_cents,
    taxInCents: row.tax_in_cents,
    taxIncluded: row.tax_included,
    discountInCents: row.discount_in_cents,
    totalInCents: row.total_in_cents,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toOrderRead(row: Order, lines: readonly SalesRecordLine[]): OrderRead {
  return {
    ...toPublicOrderRead(row, []),
    items: lines.map(toMerchantOrderLineRead),
    salesRecordId: row.sales_record_id,
    notes: row.notes,
    shippingAddress: row.shipping_address,
  };
}

/** The lines of some orders' sales records in one query, by sales record id, in line order. */
export async function linesOfOrders(
  db: Kysely<Database>,
  organizationId: string,
  orders: readonly Order[],
): Promise<Map<string, SalesRecordLine[]>> {
  const byRecord = new Map<string, SalesRecordLine[]>(orders.map((order) => [order.sales_record_id, []]));
  if (orders.length === 0) return byRecord;
  const rows = await db
    .selectFrom('sales_record_lines')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('sales_record_id', 'in', [...byRecord.keys()])
    .orderBy('sales_record_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byRecord.get(row.sales_record_id)?.push(row);
  return byRecord;
}

/** The order row by id, locked for update when asked; a missing or foreign order is a neutral 404. */
export async function findOrder(
  db: Kysely<Database>,
  organizationId: string,
  orderId: string,
  lock?: 'update',
): Promise<Order> {
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', orderId)
    .$if(lock === 'update', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!order) throw AppError.notFound('Order not found');
  return order;
}

export async function findOrderByNumber(
  db: Kysely<Database>,
  organizationId: string,
  orderNumber: number,
): Promise<Order> {
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('order_number', '=', orderNumber)
    .executeTakeFirst();
  if (!order) throw AppError.notFound('Order not found');
  return order;
}

export async function readOrder(
  db: Kysely<Database>,
  organizationId: string,
  order: Order,
): Promise<OrderRead> {
  const lines = await linesOfOrders(db, organizationId, [order]);
  return toOrderRead(order, lines.get(order.sales_record_id)!);
}

export async function readPublicOrder(
  db: Kysely<Database>,
  organizationId: string,
  order: Order,
): Promise<PublicOrderRead> {
  const lines = await linesOfOrders(db, organizationId, [order]);
  return toPublicOrderRead(order, lines.get(order.sales_record_id)!.map(toOrderLineRead));
}
