import type { AppRouter } from '@commerce/api';
import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useCallback, useMemo, useState } from 'react';
import { useText } from '../i18n/index.ts';
import { formatDuration, formatMoney } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { Notice } from '../ui.tsx';
import { formatInterval, HoldCountdown, serverClock } from './booking-hold.tsx';

type PaymentSummary = inferRouterOutputs<AppRouter>['public']['bookingCheckout']['payment'];

/** Sessions whose payment is still to be made: the link's time left is shown for these only. */
const PAYABLE = new Set(['BOUND', 'AWAITING_PAYMENT', 'PAYMENT_FAILED']);

/**
 * Under the booking payment link's page (`/checkout/pay?token=c1_…`, the checkout page): what the
 * payment is for (`public.bookingCheckout.payment`): each booking's service, time in the service's
 * zone, duration and resources, what this payment takes and the balance left for later, and the
 * time left to pay, counted down. A checkout that pays no booking (404) shows nothing.
 */
export function BookingPaymentDetails({ token }: { token: string }) {
  const trpc = useTRPC();
  const read = useQuery({
    ...trpc.public.bookingCheckout.payment.queryOptions({ token }),
    enabled: token !== '',
    retry: false,
    refetchOnWindowFocus: false,
    select: (summary: PaymentSummary) => ({ summary, now: serverClock(summary.serverTime, Date.now()) }),
  });
  const [ended, setEnded] = useState(false);
  const onExpired = useCallback(() => setEnded(true), []);
  const t = useText();
  // `select` runs again on every render; the clock is fixed by the first answer.
  const now = useMemo(() => read.data?.now, [read.dataUpdatedAt]);
  if (!read.data || !now) return null;
  const { summary } = read.data;
  const money = (amount: number) => formatMoney(amount, summary.currency);
  return (
    <section className="page booking-payment" aria-labelledby="booking-payment-title">
      <h2 id="booking-payment-title">{t('bookingPayment.title')}</h2>
      {PAYABLE.has(summary.status) && !ended ? (
        <HoldCountdown
          deadline={summary.expiresAt}
          now={now}
          label={t('conversion.reservedFor')}
          announce={t('conversion.reservedForWhat')}
          onExpired={onExpired}
        />
      ) : null}
      {ended ? <Notice tone="error">{t('bookingPayment.expired')}</Notice> : null}
      {summary.bookings.map((booking) => {
        const resources = booking.resources.map((resource) => resource.name).filter(Boolean);
        const later = Math.max(0, booking.balanceDueInCents - summary.amountDueInCents);
        return (
          <section
            key={booking.code}
            className="card summary booking-summary"
            aria-labelledby={`booking-${booking.code}`}
          >
            <h3 id={`booking-${booking.code}`}>{booking.serviceName}</h3>
            <dl className="facts">
              <dt>{t('bookingPayment.booking')}</dt>
              <dd>{booking.code}</dd>
              <dt>{t('booking.when')}</dt>
              <dd>{formatInterval(booking)}</dd>
              <dt>{t('booking.duration')}</dt>
              <dd>{formatDuration(booking.durationMinutes)}</dd>
              {booking.quantity > 1 ? (
                <>
                  <dt>{t('booking.partySize')}</dt>
                  <dd>{booking.quantity}</dd>
                </>
              ) : null}
              {resources.length > 0 ? (
                <>
                  <dt>{t('booking.with')}</dt>
                  <dd>{resources.join(', ')}</dd>
                </>
              ) : null}
              <dt>{t('booking.total')}</dt>
              <dd>{money(booking.totalInCents)}</dd>
              {booking.paidInCents > 0 ? (
                <>
                  <dt>{t('bookingPayment.paidSoFar')}</dt>
                  <dd>{money(booking.paidInCents)}</dd>
                </>
              ) : null}
              {summary.bookings.length === 1 ? (
                <>
                  <dt>{t('bookingPayment.payingNow')}</dt>
                  <dd>{money(summary.amountDueInCents)}</dd>
                  {later > 0 ? (
                    <>
                      <dt>{t('booking.balanceDueLater')}</dt>
                      <dd>{money(later)}</dd>
                    </>
                  ) : null}
                </>
              ) : null}
            </dl>
          </section>
        );
      })}
    </section>
  );
}
