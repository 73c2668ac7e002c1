import type { AppRouter } from '@commerce/api';
import { VisuallyHidden } from '@commerce/ui';
import type { inferRouterOutputs } from '@trpc/server';
import { Fragment, useEffect, useRef, useState } from 'react';
import { t, useText } from '../i18n/index.ts';
import { formatDateTime, formatDuration, formatMoney, formatTime } from '../lib/format.ts';

/**
 * What the booking checkout shows of the hold: what is booked (`BookingSummary`) and the time it is
 * held for (`HoldCountdown`). Read with `public.bookingHolds.get`, proven by the hold's key.
 */
export type HoldRead = inferRouterOutputs<AppRouter>['public']['bookingHolds']['get'];

/** The booked interval in the service's zone, named: "Nov 30, 2026, 9:00 AM UTC to 10:00 AM". */
export function formatInterval(hold: Pick<HoldRead, 'startsAt' | 'endsAt' | 'timezone'>): string {
  return t(
    'booking.interval',
    formatDateTime(hold.startsAt, hold.timezone),
    formatTime(hold.endsAt, hold.timezone),
  );
}

/**
 * What is due now and later, by the service's payment mode: the whole price now (`PAY_NOW`), a
 * deposit now and the balance later (`DEPOSIT`), or nothing now (`PAY_LATER`, or a store that
 * reviews the booking first).
 */
function paymentRows(payment: NonNullable<HoldRead['payment']>): [string, string][] {
  const money = (amount: number) => formatMoney(amount, payment.currency);
  if (payment.totalInCents === 0) return [[t('booking.price'), t('booking.free')]];
  const rows: [string, string][] = [[t('booking.price'), money(payment.totalInCents)]];
  if (payment.approvalMode === 'MANUAL')
    return [
      ...rows,
      [
        t('booking.dueNow'),
        t(
          'booking.reviewedFirst',
          money(0),
          payment.dueNowInCents > 0 ? money(payment.dueNowInCents) : undefined,
        ),
      ],
    ];
  if (payment.paymentMode === 'DEPOSIT')
    return [
      ...rows,
      [t('booking.depositDueNow'), money(payment.dueNowInCents)],
      [t('booking.balanceDueLater'), money(payment.dueLaterInCents)],
    ];
  return [
    ...rows,
    [t('booking.dueNow'), money(payment.dueNowInCents)],
    ...(payment.dueLaterInCents > 0
      ? [[t('booking.dueLater'), money(payment.dueLaterInCents)] as [string, string]]
      : []),
  ];
}

/**
 * The booking being made: service, when (in the service's zone), how long, with what, and its price
 * with what is due now and later (left out with `prices={false}` once the conversion has frozen the
 * amounts, which the page then shows itself).
 */
export function BookingSummary({ hold, prices = true }: { hold: HoldRead; prices?: boolean }) {
  const resources = hold.resources.map((resource) => resource.name).filter(Boolean);
  const t = useText();
  return (
    <section className="card summary booking-summary" aria-labelledby="booking-summary-title">
      <h2 id="booking-summary-title">{hold.serviceName}</h2>
      <dl className="facts">
        <dt>{t('booking.when')}</dt>
        <dd>{formatInterval(hold)}</dd>
        <dt>{t('booking.duration')}</dt>
        <dd>{formatDuration(hold.durationMinutes)}</dd>
        {hold.quantity > 1 ? (
          <>
            <dt>{t('booking.partySize')}</dt>
            <dd>{hold.quantity}</dd>
          </>
        ) : null}
        {resources.length > 0 ? (
          <>
            <dt>{t('booking.with')}</dt>
            <dd>{resources.join(', ')}</dd>
          </>
        ) : null}
        {hold.delivery.method === 'DELIVERY' ? (
          <>
            <dt>{t('booking.delivery')}</dt>
            <dd>
              {hold.payment ? formatMoney(hold.delivery.feeInCents, hold.payment.currency) : t('booking.yes')}
            </dd>
          </>
        ) : null}
        {hold.payment && prices
          ? paymentRows(hold.payment).map(([term, value]) => (
              <Fragment key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))
          : null}
      </dl>
      {hold.payment && prices && hold.payment.totalInCents > 0 ? (
        <p className="muted small">{t('booking.taxAdded')}</p>
      ) : null}
    </section>
  );
}

/**
 * The instant the server's clock reads now, by the offset of a read's `serverTime` to the browser's
 * clock when it arrived: a browser whose clock is wrong still counts the server's minutes.
 */
export function serverClock(serverTime: string, receivedAt: number): () => number {
  const offset = Date.parse(serverTime) - receivedAt;
  return () => Date.now() + offset;
}

/** Whole seconds left until `deadline` (server time, ms), ticking once a second; 0 at the end. */
function useSecondsLeft(deadline: number, now: () => number): number {
  const left = () => Math.max(0, Math.ceil((deadline - now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    const timer = window.setInterval(() => setSeconds(left()), 1000);
    return () => window.clearInterval(timer);
  }, [deadline, now]);
  return seconds;
}

/** "9:41" (minutes and seconds), "1:02:05" past an hour. */
export function formatClock(seconds: number): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds % 60)}` : `${minutes}:${pad(seconds % 60)}`;
}

/**
 * What the polite live region says: the whole minutes left, so it changes (and is read) once a
 * minute ("9 minutes left", "1 minute left"), then once more for the last minute, never every
 * second (a screen reader would read nothing else).
 */
export function countdownAnnouncement(seconds: number, what: string): string {
  if (seconds <= 0) return '';
  if (seconds < 60) return t('countdown.lessThanMinute', what);
  return t('countdown.minutesLeft', Math.floor(seconds / 60), what);
}

/**
 * "Held for you for 9:41", ticking each second, with a polite live region that speaks once a
 * minute and at the last minute (`countdownAnnouncement`). Calls `onExpired` once when the time is
 * up; the page then says so and offers to start again.
 */
export function HoldCountdown({
  deadline,
  now,
  label,
  announce,
  onExpired,
}: {
  /** The end, in the server's milliseconds. */
  deadline: string;
  now: () => number;
  /** "Held for you for". */
  label: string;
  /** What the time is for, in the announcement: "to complete your booking". */
  announce: string;
  onExpired: () => void;
}) {
  const seconds = useSecondsLeft(Date.parse(deadline), now);
  const expired = useRef(false);
  useEffect(() => {
    if (seconds === 0 && !expired.current) {
      expired.current = true;
      onExpired();
    }
  }, [seconds, onExpired]);
  return (
    <div className="hold-countdown">
      <p>
        {label} <strong className="hold-countdown-clock">{formatClock(seconds)}</strong>
      </p>
      <div role="status" aria-live="polite" aria-atomic="true">
        <VisuallyHidden>{countdownAnnouncement(seconds, announce)}</VisuallyHidden>
      </div>
    </div>
  );
}
