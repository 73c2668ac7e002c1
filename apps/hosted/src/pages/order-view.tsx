import type { AppRouter } from '@commerce/api';
import type { inferRouterOutputs } from '@trpc/server';
import { useText } from '../i18n/index.ts';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { orderProgress, paymentInWords } from '../lib/order-status.ts';
import { AddressBlock, LineItemsTable, TotalsList } from '../line-items.tsx';

export type Outputs = inferRouterOutputs<AppRouter>;
export type CustomerOrder = Outputs['customer']['account']['getOrderByReference'];

/**
 * An order as its customer reads it (account and order-status link): one status in plain words
 * (derived from the order's status, payment and shipments), where it ships, its lines and totals as
 * checkout showed them (the same components, labels and order), and its shipments.
 */
export function OrderView({ order }: { order: CustomerOrder }) {
  const t = useText();
  const progress = orderProgress(order);
  const payment = paymentInWords(order.paymentStatus);
  const ships = order.shippingAddress !== null || order.shippingInCents > 0;
  return (
    <>
      <section className="order-status" aria-labelledby="order-status-title">
        <h2 id="order-status-title">{t('order.status')}</h2>
        <p>
          <strong className="status-label">{progress.label}</strong>
          <span className="status-detail"> {progress.detail}</span>
        </p>
      </section>
      <dl className="facts">
        <dt>{t('order.order')}</dt>
        <dd>#{order.orderNumber}</dd>
        <dt>{t('order.placed')}</dt>
        <dd>{formatDateTime(order.createdAt)}</dd>
        {payment ? (
          <>
            <dt>{t('order.payment')}</dt>
            <dd>{payment}</dd>
          </>
        ) : null}
      </dl>

      {order.shippingAddress ? (
        <section aria-labelledby="ship-to-title">
          <h2 id="ship-to-title">{t('order.shipTo')}</h2>
          <AddressBlock address={order.shippingAddress} />
        </section>
      ) : null}

      <section className="summary" aria-labelledby="items-title">
        <h2 id="items-title">{t('order.items')}</h2>
        <LineItemsTable
          lines={order.items.map((line) => ({ ...line, key: line.id }))}
          currency={order.currency}
        />
        <TotalsList
          currency={order.currency}
          subtotalInCents={order.subtotalInCents}
          discountInCents={order.discountInCents}
          {...(ships ? { shipping: order.shippingInCents } : {})}
          taxInCents={order.taxInCents}
          taxIncluded={order.taxIncluded}
          totalInCents={order.totalInCents}
        />
      </section>

      <section aria-labelledby="shipments-title">
        <h2 id="shipments-title">{t('order.shipments')}</h2>
        {order.shipments.length === 0 ? (
          <p className="muted">{t('order.nothingShipped')}</p>
        ) : (
          <ul className="list">
            {order.shipments.map((shipment) => (
              <li key={`${shipment.shippedAt}-${shipment.trackingNumber ?? ''}`} className="card">
                <p>
                  {shipment.deliveredAt
                    ? t('order.deliveredAt', formatDateTime(shipment.deliveredAt))
                    : t('order.shippedAt', formatDateTime(shipment.shippedAt))}
                  {shipment.deliveredAt ? t('order.alsoShippedAt', formatDateTime(shipment.shippedAt)) : ''}
                </p>
                {shipment.carrier || shipment.trackingNumber ? (
                  <p>
                    {shipment.carrier ?? t('order.carrier')}{' '}
                    {shipment.trackingUrl?.startsWith('https://') ? (
                      <a href={shipment.trackingUrl} rel="noopener noreferrer" target="_blank">
                        {shipment.trackingNumber ?? t('order.track')}
                      </a>
                    ) : (
                      shipment.trackingNumber
                    )}
                  </p>
                ) : null}
                <ul>
                  {shipment.lines.map((line) => (
                    <li key={line.name}>{t('order.quantityOf', formatNumber(line.quantity), line.name)}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
