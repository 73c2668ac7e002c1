import type { AppRouter } from '@commerce/api';
import type { inferRouterOutputs } from '@trpc/server';
import { formatDate, formatDateTime, formatMoney, humanize } from '../lib/format.ts';
import { LineItemsTable } from '../line-items.tsx';

export type Outputs = inferRouterOutputs<AppRouter>;
export type CustomerOrder = Outputs['customer']['account']['getOrderByReference'];

/** An order as its customer reads it: status, lines, totals and shipments (account and order-status link). */
export function OrderView({ order }: { order: CustomerOrder }) {
  const money = (cents: number) => formatMoney(cents, order.currency);
  return (
    <>
      <dl className="facts">
        <dt>Order</dt>
        <dd>#{order.orderNumber}</dd>
        <dt>Placed</dt>
        <dd>{formatDate(order.createdAt)}</dd>
        <dt>Status</dt>
        <dd>{humanize(order.status)}</dd>
        <dt>Payment</dt>
        <dd>{humanize(order.paymentStatus)}</dd>
        <dt>Fulfillment</dt>
        <dd>{humanize(order.fulfillmentStatus)}</dd>
      </dl>

      <h2>Items</h2>
      <LineItemsTable
        lines={order.items.map((line) => ({ ...line, key: line.id }))}
        currency={order.currency}
      />

      <h2>Totals</h2>
      <dl className="facts">
        <dt>Subtotal</dt>
        <dd>{money(order.subtotalInCents)}</dd>
        {order.discountInCents > 0 ? (
          <>
            <dt>Discount</dt>
            <dd>−{money(order.discountInCents)}</dd>
          </>
        ) : null}
        <dt>Shipping</dt>
        <dd>{money(order.shippingInCents)}</dd>
        <dt>{order.taxIncluded ? 'Tax included' : 'Tax'}</dt>
        <dd>{money(order.taxInCents)}</dd>
        <dt>Total</dt>
        <dd>
          <strong>{money(order.totalInCents)}</strong>
        </dd>
      </dl>

      <h2>Shipments</h2>
      {order.shipments.length === 0 ? (
        <p className="muted">Nothing has shipped yet.</p>
      ) : (
        <ul className="list">
          {order.shipments.map((shipment) => (
            <li key={`${shipment.shippedAt}-${shipment.trackingNumber ?? ''}`} className="card">
              <p>
                <strong>{humanize(shipment.status)}</strong> · shipped {formatDateTime(shipment.shippedAt)}
                {shipment.deliveredAt ? ` · delivered ${formatDateTime(shipment.deliveredAt)}` : ''}
              </p>
              {shipment.carrier || shipment.trackingNumber ? (
                <p>
                  {shipment.carrier ?? 'Carrier'}{' '}
                  {shipment.trackingUrl?.startsWith('https://') ? (
                    <a href={shipment.trackingUrl} rel="noopener noreferrer" target="_blank">
                      {shipment.trackingNumber ?? 'Track the parcel'}
                    </a>
                  ) : (
                    shipment.trackingNumber
                  )}
                </p>
              ) : null}
              <ul>
                {shipment.lines.map((line) => (
                  <li key={line.name}>
                    {line.quantity} × {line.name}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
