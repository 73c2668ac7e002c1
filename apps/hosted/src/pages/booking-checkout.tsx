import type { AppRouter } from '@commerce/api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useRouteContext } from '@tanstack/react-router';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import { useCallback, useMemo, useState } from 'react';
import { Checkbox } from 'react-aria-components';
import { type MessageKey, useText } from '../i18n/index.ts';
import { convertHoldInputSchema } from '../lib/checkout-schemas.ts';
import { formatDateTime, formatMoney } from '../lib/format.ts';
import { fieldErrors } from '../lib/schemas.ts';
import { useStore } from '../lib/store.ts';
import { type ApiFailure, readFailure } from '../lib/trpc.ts';
import { Button, FailureNotice, Field, Form, Loading, Notice, Page } from '../ui.tsx';
import { BookingSummary, HoldCountdown, type HoldRead, serverClock } from './booking-hold.tsx';
import { useStepFocus } from './checkout-parts.tsx';
import '../checkout.css';

type Conversion = inferRouterOutputs<AppRouter>['public']['bookingCheckout']['convert'];

/**
 * The hold's key, from the link's fragment (`#key=…`): it proves possession of the hold, so it stays
 * out of the request line (the fragment never reaches a server or its logs).
 */
export function holdKeyFromHash(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('key') ?? '';
}

/**
 * A client whose calls carry the hold's `x-idempotency-key`: the conversion route takes the key the
 * hold was created with as the proof of possession and to convert once.
 */
function holdClient(slug: string, key: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: '/trpc',
        headers: { 'x-organization-slug': slug, 'x-idempotency-key': key },
        fetch: (url, init) => fetch(url, { ...(init as RequestInit), credentials: 'same-origin' }),
      }),
    ],
  });
}

function useHoldClient(slug: string, key: string) {
  return useMemo(() => holdClient(slug, key), [slug, key]);
}

type HoldClient = ReturnType<typeof useHoldClient>;

/**
 * The hold as the page shows it (`public.bookingHolds.get`, proven by the key), with the server's
 * clock at its arrival so that the countdown follows the server's time, not the browser's.
 */
function useHoldRead(client: HoldClient, hold: string, enabled: boolean) {
  return useQuery({
    queryKey: ['booking-hold', hold],
    queryFn: async () => {
      const read = await client.public.bookingHolds.get.query({ id: hold });
      return { hold: read, now: serverClock(read.serverTime, Date.now()) };
    },
    enabled,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

const TERMINAL_TEXT: Record<string, MessageKey> = {
  HOLD_EXPIRED: 'bookingCheckout.holdExpired',
  HOLD_RELEASED: 'bookingCheckout.holdReleased',
  SERVICE_UNAVAILABLE: 'bookingCheckout.serviceUnavailable',
  CAPACITY_LOST: 'bookingCheckout.capacityLost',
  BOOKING_DECLINED: 'bookingCheckout.declined',
  BOOKING_CANCELLED: 'bookingCheckout.cancelled',
  BOOKING_EXPIRED: 'bookingCheckout.expired',
};

/**
 * `/bookings/checkout?hold=hld_…&email=…#key=…`: completes a booking from a hold the storefront
 * made (docs/bookings.md "Conversion"). The customer gives their name (and the hold's email); the
 * answer's flow is shown as it is: PAYMENT (pay the amount due through the checkout page), REQUEST
 * (the store reviews it), CONFIRMED (booked) or TERMINAL (the hold can no longer become a booking).
 */
export function BookingCheckoutPage({ hold, email }: { hold: string; email: string | undefined }) {
  const { slug } = useRouteContext({ from: '__root__' });
  const [key] = useState(() => holdKeyFromHash(window.location.hash));
  const client = useHoldClient(slug, key);
  const held = useHoldRead(client, hold, hold !== '' && key !== '');
  const [ended, setEnded] = useState(false);
  const onExpired = useCallback(() => setEnded(true), []);
  const convert = useMutation({
    mutationFn: (input: Parameters<typeof client.public.bookingCheckout.convert.mutate>[0]) =>
      client.public.bookingCheckout.convert.mutate(input),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const [agreementVersion, setAgreementVersion] = useState<number | undefined>();
  const [accepted, setAccepted] = useState(false);
  const [conversion, setConversion] = useState<Conversion | undefined>();
  const [notFound, setNotFound] = useState(false);
  const t = useText();

  if (!hold || !key || notFound || (held.error && readFailure(held.error).status === 404))
    return (
      <Page title={t('bookingCheckout.linkBrokenTitle')}>
        <p>{t('bookingCheckout.linkBrokenText')}</p>
      </Page>
    );
  if (conversion) return <ConversionResult conversion={conversion} held={held.data} />;
  if (held.isPending) return <Loading what={t('bookingCheckout.loading')} />;
  const read = held.data?.hold;
  if (read && (ended || read.status === 'EXPIRED' || read.status === 'RELEASED'))
    return <HoldEnded hold={read} email={email} released={read.status === 'RELEASED'} />;

  const submit = async (data: FormData) => {
    setFailure(undefined);
    const text = (name: string) => {
      const value = String(data.get(name) ?? '').trim();
      return value === '' ? undefined : value;
    };
    const name = text('customerName');
    const input = {
      customerName: name ?? '',
      customerEmail: text('customerEmail') ?? '',
      ...(text('customerPhone') ? { customerPhone: text('customerPhone') } : {}),
      ...(text('customerNote') ? { customerNote: text('customerNote') } : {}),
      ...(agreementVersion !== undefined && accepted
        ? { agreement: { version: agreementVersion, signerName: name ?? '', accepted: true as const } }
        : {}),
    };
    const parsed = convertHoldInputSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    if (agreementVersion !== undefined && !accepted) {
      setErrors({ agreement: t('bookingCheckout.acceptAgreement') });
      return;
    }
    setErrors({});
    try {
      setConversion(await convert.mutateAsync({ id: hold, ...parsed.data }));
    } catch (error) {
      const read = readFailure(error);
      if (read.status === 404) setNotFound(true);
      else if (read.code === 'AGREEMENT_REQUIRED') {
        const version = (error as { data?: { details?: { version?: number } } }).data?.details?.version;
        setAgreementVersion(version ?? 1);
        setAccepted(false);
      } else if (read.issues.length > 0)
        setErrors(
          Object.fromEntries(
            read.issues.map((issue) => [
              issue.path,
              issue.path === 'customerEmail' ? t('bookingCheckout.sameEmail') : issue.message,
            ]),
          ),
        );
      else setFailure(read);
    }
  };

  return (
    <Page title={t('bookingCheckout.title')}>
      {read && held.data && read.status === 'ACTIVE' ? (
        <HoldCountdown
          deadline={read.expiresAt}
          now={held.data.now}
          label={t('bookingCheckout.heldFor')}
          announce={t('bookingCheckout.heldForWhat')}
          onExpired={onExpired}
        />
      ) : null}
      {read ? <BookingSummary hold={read} /> : null}
      <p>{t('bookingCheckout.intro')}</p>
      <Form
        validationErrors={errors}
        aria-label={t('bookingCheckout.yourDetails')}
        onSubmit={(event) => {
          event.preventDefault();
          void submit(new FormData(event.currentTarget));
        }}
      >
        <Field name="customerName" label={t('checkout.fullName')} autoComplete="name" isRequired />
        <Field
          name="customerEmail"
          label={t('checkout.email')}
          type="email"
          autoComplete="email"
          isRequired
          defaultValue={email ?? ''}
          description={t('bookingCheckout.emailDescription')}
        />
        <Field name="customerPhone" label={t('checkout.phone')} type="tel" autoComplete="tel" />
        <Field name="customerNote" label={t('bookingCheckout.note')} />
        {agreementVersion !== undefined ? (
          <div className="card">
            <Notice>{t('bookingCheckout.agreementAsked', agreementVersion)}</Notice>
            <Checkbox
              className="checkbox"
              isSelected={accepted}
              onChange={(selected) => {
                setAccepted(selected);
                // Its message goes as it is ticked, not at the next press of "Book" (which it would move).
                if (selected) setErrors(({ agreement: _, ...rest }) => rest);
              }}
            >
              <span className="box" aria-hidden="true">
                {accepted ? '✓' : ''}
              </span>
              {t('bookingCheckout.acceptLabel')}
            </Checkbox>
            {errors.agreement ? <p className="field-error">{errors.agreement}</p> : null}
          </div>
        ) : null}
        {failure?.code === 'CAPACITY_UNAVAILABLE' ? (
          <Notice tone="error">{t('bookingCheckout.timeGone')}</Notice>
        ) : failure?.code === 'STALE_STATE' ? (
          <Notice tone="error">{t('bookingCheckout.holdStale')}</Notice>
        ) : (
          <FailureNotice failure={failure} />
        )}
        <div className="actions">
          <Button type="submit" isDisabled={convert.isPending}>
            {convert.isPending ? t('bookingCheckout.booking') : t('bookingCheckout.book')}
          </Button>
        </div>
      </Form>
    </Page>
  );
}

/**
 * The hold has ended (its time ran out, or it was released): a plain page, nothing booked or
 * charged, and a way to start again: hold the same time again (a new hold with a new key, when the
 * link named the email and the hold delivers nothing, whose address the page does not have), or go
 * back to the store.
 */
function HoldEnded({
  hold,
  email,
  released,
}: {
  hold: HoldRead;
  email: string | undefined;
  released: boolean;
}) {
  useStepFocus('ended');
  const { slug } = useRouteContext({ from: '__root__' });
  const store = useStore();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const again = useMutation({
    mutationFn: async () => {
      const key = newHoldKey();
      const created = await holdClient(slug, key).public.bookingHolds.create.mutate({
        serviceId: hold.serviceId,
        startsAt: hold.startsAt,
        endsAt: hold.endsAt,
        quantity: hold.quantity,
        customerEmail: email ?? '',
        resourceSelections: hold.resources.map(({ requirementId, resourceId, quantity }) => ({
          requirementId,
          resourceId,
          quantity,
        })),
      });
      return { id: created.id, key };
    },
    onSuccess: ({ id, key }) =>
      navigate({ to: '/bookings/checkout', search: { hold: id, email }, hash: `key=${key}` }),
    onError: (error) => setFailure(readFailure(error)),
  });
  const canHoldAgain = email !== undefined && email !== '' && hold.delivery.method === 'PICKUP';
  const t = useText();
  return (
    <Page title={released ? t('holdEnded.releasedTitle') : t('holdEnded.endedTitle')}>
      <p>
        {released ? t('holdEnded.released') : t('bookingCheckout.holdExpired')} {t('holdEnded.nothingBooked')}
      </p>
      <BookingSummary hold={hold} />
      {failure ? (
        <Notice tone="error">
          {failure.code === 'CAPACITY_UNAVAILABLE' || failure.code === 'BOOKING_SLOT_UNAVAILABLE'
            ? t('bookingCheckout.timeGone')
            : t('holdEnded.couldNotHold')}
        </Notice>
      ) : null}
      <div className="actions">
        {canHoldAgain && !failure ? (
          <Button onPress={() => again.mutate()} isDisabled={again.isPending}>
            {again.isPending ? t('holdEnded.holding') : t('holdEnded.holdAgain')}
          </Button>
        ) : null}
        {store.data?.websiteUrl ? (
          <a href={store.data.websiteUrl} className="button button-secondary">
            {t('holdEnded.chooseAnother')}
          </a>
        ) : null}
      </div>
      {store.data?.websiteUrl ? null : <p className="muted small">{t('holdEnded.chooseAnotherHint')}</p>}
    </Page>
  );
}

/** A key for a new hold: 128 random bits, as the storefront's own. */
function newHoldKey(): string {
  return `hold-${crypto.randomUUID()}`;
}

function ConversionResult({
  conversion,
  held,
}: {
  conversion: Conversion;
  held: { hold: HoldRead; now: () => number } | undefined;
}) {
  useStepFocus(conversion.flow);
  const [payExpired, setPayExpired] = useState(false);
  const onPayExpired = useCallback(() => setPayExpired(true), []);
  const money = (amount: number) => formatMoney(amount, conversion.currency);
  const summary = held ? <BookingSummary hold={held.hold} prices={false} /> : null;
  const t = useText();
  switch (conversion.flow) {
    case 'PAYMENT':
      if (payExpired)
        return (
          <Page title={t('conversion.payExpiredTitle')}>
            <p>{t('conversion.payExpiredText')}</p>
            {summary}
          </Page>
        );
      return (
        <Page title={t('conversion.payTitle')}>
          {conversion.paymentExpiresAt && held ? (
            <HoldCountdown
              deadline={conversion.paymentExpiresAt}
              now={held.now}
              label={t('conversion.reservedFor')}
              announce={t('conversion.reservedForWhat')}
              onExpired={onPayExpired}
            />
          ) : null}
          <p>
            {t('conversion.reservedUntil')}{' '}
            <strong>
              {conversion.paymentExpiresAt
                ? formatDateTime(conversion.paymentExpiresAt)
                : t('conversion.soon')}
            </strong>
            {t('conversion.payNow', money(conversion.amountDueNowInCents))}
          </p>
          {summary}
          <dl className="facts">
            <dt>{t('booking.dueNow')}</dt>
            <dd>{money(conversion.amountDueNowInCents)}</dd>
            {conversion.remainingBalanceInCents > 0 ? (
              <>
                <dt>{t('booking.balanceDueLater')}</dt>
                <dd>{money(conversion.remainingBalanceInCents)}</dd>
              </>
            ) : null}
            <dt>{t('booking.total')}</dt>
            <dd>{money(conversion.totalInCents)}</dd>
          </dl>
          <p>
            <Link
              to="/checkout/pay"
              search={{ token: conversion.checkoutToken ?? '' }}
              className="button button-primary"
            >
              {t('payment.pay', money(conversion.amountDueNowInCents))}
            </Link>
          </p>
          <p className="muted small">{t('conversion.alsoEmailed')}</p>
        </Page>
      );
    case 'REQUEST':
      return (
        <Page title={t('conversion.requestedTitle')}>
          <Notice tone="success">{t('conversion.requestedText')}</Notice>
          <dl className="facts">
            <dt>{t('booking.total')}</dt>
            <dd>{money(conversion.totalInCents)}</dd>
          </dl>
          <p className="muted small">{t('conversion.requestLink')}</p>
        </Page>
      );
    case 'CONFIRMED':
      return (
        <Page title={t('conversion.bookedTitle')}>
          <Notice tone="success">{t('conversion.bookedText')}</Notice>
          <dl className="facts">
            <dt>{t('booking.total')}</dt>
            <dd>{money(conversion.totalInCents)}</dd>
            {conversion.remainingBalanceInCents > 0 ? (
              <>
                <dt>{t('booking.balanceDueLater')}</dt>
                <dd>{money(conversion.remainingBalanceInCents)}</dd>
              </>
            ) : null}
          </dl>
          <p className="muted small">{t('conversion.manageLink')}</p>
        </Page>
      );
    default:
      return (
        <Page title={t('conversion.failedTitle')}>
          <Notice tone="error">
            {t(TERMINAL_TEXT[conversion.terminalReason ?? ''] ?? 'conversion.noLonger')}
          </Notice>
          <p>{t('conversion.failedText')}</p>
        </Page>
      );
  }
}
