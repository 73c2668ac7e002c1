import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
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
  if (session.isPending) return <Loading what="your order" />;
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
        <Page title="Payment received">
          <Notice tone="success">
            Your payment was received and your booking is confirmed.{' '}
            {current.email ? `A confirmation is on its way to ${current.email}.` : null}
          </Notice>
          <OrderSummary session={current} title="Payment" />
          <p>
            <Link to="/account">See your bookings in your account</Link>
          </p>
        </Page>
      ) : (
        <OrderConfirmation session={current} free={outcome === 'FREE'} websiteUrl={store.data?.websiteUrl} />
      );
    case 'FAILED':
      return (
        <Page title="The payment did not go through">
          <Notice tone="error">Nothing was charged. You can try again with another card.</Notice>
          <p>
            <Link to="/checkout" search={{ token }} className="button button-primary">
              Try the payment again
            </Link>
          </p>
        </Page>
      );
    case 'CANCELLED':
      return (
        <Page title="This order was cancelled">
          <p>The store cancelled this order. Any payment taken is refunded.</p>
        </Page>
      );
    case 'NOT_STARTED':
      return (
        <Page title="Your checkout is not finished">
          <p>No payment was made yet.</p>
          <p>
            <Link to="/checkout" search={{ token }} className="button button-primary">
              Back to checkout
            </Link>
          </p>
        </Page>
      );
    default: {
      const waiting = Date.now() - since.current < RESULT_POLL_LIMIT_MS;
      return (
        <Page title={waiting ? 'Confirming your payment' : 'Your payment is still processing'}>
          {waiting ? (
            <p className="loading" role="status">
              Waiting for the payment processor to confirm. This usually takes a few seconds…
            </p>
          ) : (
            <>
              <Notice>
                The payment processor has not confirmed your payment yet. You do not need to pay again: we
                email you as soon as it is confirmed.
              </Notice>
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
                  Check again
                </Button>
              </div>
            </>
          )}
          <OrderSummary session={current} title="Your order" />
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
  return (
    <Page title="Thank you for your order">
      <Notice tone="success">
        {free ? 'Your order is placed.' : 'Your payment was received and your order is placed.'}{' '}
        {session.email ? `A confirmation is on its way to ${session.email}.` : null}
      </Notice>
      <dl className="facts confirmation">
        {session.orderNumber !== null ? (
          <>
            <dt>Order number</dt>
            <dd>#{session.orderNumber}</dd>
          </>
        ) : null}
        <dt>Placed</dt>
        <dd>{formatDateTime(session.updatedAt)}</dd>
        <dt>Payment</dt>
        <dd>
          {free ? 'No payment needed' : `${formatMoney(session.totalInCents, session.currency)} paid by card`}
        </dd>
      </dl>
      {session.shippingAddress ? (
        <section aria-labelledby="ship-to-title">
          <h2 id="ship-to-title">Ship to</h2>
          <AddressBlock address={session.shippingAddress} />
          {method ? (
            <p>
              <span className="muted">Shipping method:</span> {method.name}
              {method.estimatedDelivery ? ` (${method.estimatedDelivery})` : ''}
            </p>
          ) : null}
        </section>
      ) : null}
      <OrderSummary session={session} title="Your order" />
      <div className="actions">
        {websiteUrl ? (
          <a href={websiteUrl} className="button button-primary">
            Continue shopping
          </a>
        ) : null}
        <Link to="/account">See your orders in your account</Link>
      </div>
    </Page>
  );
}
