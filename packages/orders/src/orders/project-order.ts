import { newId, newOrderReference } from '@commerce/core';
import type { Database, Order } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { RecordedSale } from '../sales-records/record-sale.ts';
import { takeOrderNumber } from './order-numbers.ts';
import { emitOrderEvent } from './order-webhooks.ts';

/**
 * Projects a just-recorded sale as a new order: a fresh `orderReference`, the
 * organization's next order number, `PENDING` and `UNFULFILLED`, with the
 * sale's customer, currency, payment status and totals copied. Must run in
 * the transaction that recorded the sale (the number is taken under the
 * counter row's lock until it commits). Every way of creating an order
 * (the legacy route now, checkout next) goes through here.
 */
export async function projectOrder(
  trx: Kysely<Database>,
  sale: RecordedSale,
  options: { notes: string | null; at: Date },
): Promise<Order> {
  const { record } = sale;
  const orderNumber = await takeOrderNumber(trx, record.organization_id);
  const order = await trx
    .insertInto('orders')
    .values({
      organization_id: record.organization_id,
      id: newId('ord', options.at),
      sales_record_id: record.id,
      order_reference: newOrderReference(),
      order_number: orderNumber,
      status: 'PENDING',
      fulfillment_status: 'UNFULFILLED',
      payment_status: record.payment_status,
      currency: record.currency,
      customer_name: record.customer_name,
      customer_email: record.customer_email,
      customer_phone: record.customer_phone,
      notes: options.notes,
      item_count: sale.lines.reduce((sum, line) => sum + line.quantity, 0),
      subtotal_in_cents: record.subtotal_in_cents,
      shipping_in_cents: record.shipping_in_cents,
      tax_in_cents: record.tax_in_cents,
      tax_included: record.tax_included,
      discount_in_cents: record.discount_in_cents,
      total_in_cents: record.total_in_cents,
      shipping_address: record.shipping_address === null ? null : JSON.stringify(record.shipping_address),
      created_at: options.at,
      updated_at: options.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await emitOrderEvent(trx, 'order.created', order, options.at);
  return order;
}
