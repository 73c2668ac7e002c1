import { formatMoney } from '@commerce/core';
import type {
  CheckoutSession,
  CheckoutSessionLine,
  Database,
  Order,
  PaymentStatus,
  SalesRecordLine,
} from '@commerce/db';
import { type CustomerEmailConfig, customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import type { Kysely } from 'kysely';
import { orderStatusPath } from '../orders/create-legacy-order.ts';
import { issueOrderStatusToken } from '../orders/order-status-tokens.ts';
import { projectOrder } from '../orders/project-order.ts';
import { recordSale } from '../sales-records/record-sale.ts';

/**
 * The order of a bound checkout session, through the orders service's own
 * pieces: its sales record (source CHECKOUT, the session's PRODUCT and
 * SERVICE lines at the frozen prices, the frozen shipping and tax), and
 * the order projecting the record (PENDING, UNFULFILLED) through
 * `projectOrder`. Call in the transaction that moves the session.
 */
export async function placeCheckoutOrder(
  trx: Kysely<Database>,
  session: CheckoutSession,
  lines: readonly CheckoutSessionLine[],
  paymentStatus: PaymentStatus,
  at: Date,
): Promise<{ order: Order; saleLines: SalesRecordLine[] }> {
  const customer = {
    name: session.customer_name ?? '',
    email: session.email ?? '',
    phone: session.customer_phone,
  };
  const sale = await recordSale(trx, {
    organizationId: session.organization_id,
    source: 'CHECKOUT',
    currency: session.currency,
    customer,
    lines: lines.map((line) => ({
      type: line.type,
      itemId: line.item_id,
      variantId: line.variant_id,
      name: line.name,
      quantity: line.quantity,
      unitPriceInCents: line.unit_price_in_cents,
    })),
    shippingInCents: session.shipping_in_cents,
    taxInCents: session.tax_in_cents,
    taxIncluded: session.tax_included,
    discountInCents: 0,
    paymentStatus,
    shippingAddress: session.shipping_address,
    at,
  });
  const order = await projectOrder(trx, sale, { notes: null, at });
  return { order, saleLines: sale.lines };
}

/** Moves an order and its sales record to a payment status together. */
export async function setOrderPaymentStatus(
  trx: Kysely<Database>,
  order: Pick<Order, 'organization_id' | 'id' | 'sales_record_id'>,
  paymentStatus: PaymentStatus,
  at: Date,
): Promise<Order> {
  await trx
    .updateTable('sales_records')
    .set({ payment_status: paymentStatus, updated_at: at })
    .where('organization_id', '=', order.organization_id)
    .where('id', '=', order.sales_record_id)
    .execute();
  return trx
    .updateTable('orders')
    .set({ payment_status: paymentStatus, updated_at: at })
    .where('organization_id', '=', order.organization_id)
    .where('id', '=', order.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The confirmation of a placed checkout order (free, or paid by the webhook):
 * a fresh read-only `o1_` status token and the ORDER_CONFIRMATION email that
 * carries it, queued in the caller's transaction. Returns the token.
 */
export async function confirmCheckoutOrder(
  trx: Kysely<Database>,
  order: Order,
  email: CustomerEmailConfig,
  at: Date,
): Promise<string> {
  const token = await issueOrderStatusToken(trx, {
    organizationId: order.organization_id,
    orderId: order.id,
    at,
  });
  await enqueueTemplatedEmail(trx, {
    organizationId: order.organization_id,
    type: 'ORDER_CONFIRMATION',
    to: order.customer_email,
    values: {
      'customer.name': order.customer_name,
      'order.number': String(order.order_number),
      'order.total': formatMoney(order.total_in_cents, order.currency),
      'order.itemCount': String(order.item_count),
    },
    links: { action: customerLink(email, orderStatusPath(token)) },
    emailFrom: email.emailFrom,
    metadata: { orderId: order.id, orderNumber: order.order_number },
    at,
  });
  return token;
}
