import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useText } from '../i18n/index.ts';
import { formatDateTime, formatMoney } from '../lib/format.ts';
import { RESULT_POLL_LIMIT_MS, RESULT_POLL_MS } from '../lib/result-polling.ts';
import { useStore } from '../lib/store.ts';
import { readFailure, useTRPC } from '../lib/trpc.ts';
import { AddressBlock } from '../line-items.tsx';
import { Button, FailureNotice, Loading, Notice, Page } from '../ui.tsx';
import { CheckoutLinkNotFound } from './checkout.tsx';
import {
  type CheckoutSession,
  OrderSummary,
  type PaymentOutcome,
  paymentOutcome,
  useStepFocus,
} from './checkout-parts.tsx';

const SETTLED: PaymentOutcome[] = ['PAID', 'FREE', 'FAILED', 'CANCELLED', 'NOT_STARTED'];

/**
 * `/checkout/result?token=c1_…`: the order as the server has it. The payment's outcome is set by
 * the processor's webhook, so the page polls the session until it is settled (paid, failed,
 * cancelled), for a bounded time, then says the payment is still processing and offers to check
 * again. The browser's own payment result (Stripe's redirect parameters) is never read.
 */
export function CheckoutResultPage({ token }: { token: string }) {
  const trpc = useTRPC();
  const store = useStore();
  const since = useRef(Date.now());
  const [round, setRound] = useState(0);
  const t = useText();
  const session = useQuery({
    ...trpc.public.checkout.get.queryOptions({ token }),
    enabled: token !== '',
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data && SETTLED.includes(paymentOutcome(data))) return false;
      return Date.now() - since.current < RESULT_POLL_LIMIT_MS ? RESULT_POLL_MS : false;
    },
  });

  const settled = session.data ? paymentOutcome(session.data) : '';
  useStepFocus(settled);

  useEffect(() => {
    // Re-render when the wait runs out, to say "still processing" (polling has stopped by then).
    const left = RESULT_POLL_LIMIT_MS - (Date.now() - since.current);
    const timer = setTimeout(() => setRound((count) => count + 1), Math.max(0, left) + 50);
    return () => clearTimeout(timer);
  }, [round]);

  if (token === '') return <CheckoutLinkNotFound />;
  if (session.isPending) return <Loading what={t('result.loading')} />;
  if (session.isError) {
    const failure = readFailure(session.error);
    return failure.status === 404 ? <CheckoutLinkNotFound /> : <FailureNotice failure={failure} />;
  }
  const current = session.data;
  const outcome = paymentOutcome(current);
  const booking = current.orderId === null && outcome === 'PAID';

  switch (outcome) {
    case 'PAID':
    case 'FREE':
      return booking ? (
        <Page title={t('result.paymentReceived')}>
          <Notice tone="success">
            {t('result.bookingConfirmed')} {current.email ? t('result.confirmationTo', current.email) : null}
          </Notice>
          <OrderSummary session={current} title={t('result.payment')} />
          <p>
            <Link to="/account">{t('result.seeBookings')}</Link>
          </p>
        </Page>
      ) : (
        <OrderConfirmation session={current} free={outcome === 'FREE'} websiteUrl={store.data?.websiteUrl} />
      );
    case 'FAILED':
      return (
        <Page title={t('result.failedTitle')}>
          <Notice tone="error">{t('result.failedText')}</Notice>
          <p>
            <Link to="/checkout" search={{ token }} className="button button-primary">
              {t('result.tryAgain')}
            </Link>
          </p>
        </Page>
      );
    case 'CANCELLED':
      return (
        <Page title={t('checkout.cancelledTitle')}>
          <p>{t('result.cancelledText')}</p>
        </Page>
      );
    case 'NOT_STARTED':
      return (
        <Page title={t('result.notFinishedTitle')}>
          <p>{t('result.noPaymentYet')}</p>
          <p>
            <Link to="/checkout" search={{ token }} className="button button-primary">
              {t('result.backToCheckout')}
            </Link>
          </p>
        </Page>
      );
    default: {
      const waiting = Date.now() - since.current < RESULT_POLL_LIMIT_MS;
      return (
        <Page title={waiting ? t('result.confirming') : t('result.stillProcessing')}>
          {waiting ? (
            <p className="loading" role="status">
              {t('result.waiting')}
            </p>
          ) : (
            <>
              <Notice>{t('result.notConfirmedYet')}</Notice>
              <div className="actions">
                <Button
                  variant="secondary"
                  isDisabled={session.isFetching}
                  onPress={() => {
                    since.current = Date.now();
                    setRound((round) => round + 1);
                    void session.refetch();
                  }}
                >
                  {t('payment.checkAgain')}
                </Button>
              </div>
            </>
          )}
          <OrderSummary session={current} title={t('result.yourOrder')} />
        </Page>
      );
    }
  }
}

/**
 * The order confirmation: the order number the store and its emails use (never the internal
 * reference), when it was placed (with the zone), where it ships and how, what was paid, the order
 * as priced, and a way back to the store's website when the store has one.
 */
function OrderConfirmation({
  session,
  free,
  websiteUrl,
}: {
  session: CheckoutSession;
  free: boolean;
  websiteUrl: string | null | undefined;
}) {
  const method = session.shippingOptions.find((option) => option.id === session.shippingRateId);
  const t = useText();
  return (
    <Page title={t('result.thankYou')}>
      <Notice tone="success">
        {free ? t('result.orderPlaced') : t('result.paidAndPlaced')}{' '}
        {session.email ? t('result.confirmationTo', session.email) : null}
      </Notice>
      <dl className="facts confirmation">
        {session.orderNumber !== null ? (
          <>
            <dt>{t('result.orderNumber')}</dt>
            <dd>{t('result.orderNumberValue', session.orderNumber)}</dd>
          </>
        ) : null}
        <dt>{t('result.placed')}</dt>
        <dd>{formatDateTime(session.updatedAt)}</dd>
        <dt>{t('result.payment')}</dt>
        <dd>
          {free
            ? t('result.noPaymentNeeded')
            : t('result.paidByCard', formatMoney(session.totalInCents, session.currency))}
        </dd>
      </dl>
      {session.shippingAddress ? (
        <section aria-labelledby="ship-to-title">
          <h2 id="ship-to-title">{t('result.shipTo')}</h2>
          <AddressBlock address={session.shippingAddress} />
          {method ? (
            <p>
              <span className="muted">{t('result.shippingMethod')}</span> {method.name}
              {method.estimatedDelivery ? t('result.estimatedDelivery', method.estimatedDelivery) : ''}
            </p>
          ) : null}
        </section>
      ) : null}
      <OrderSummary session={session} title={t('result.yourOrder')} />
      <div className="actions">
        {websiteUrl ? (
          <a href={websiteUrl} className="button button-primary">
            {t('result.continueShopping')}
          </a>
        ) : null}
        <Link to="/account">{t('result.seeOrders')}</Link>
      </div>
    </Page>
  );
}
