import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useText } from '../i18n/index.ts';
import { formatDateTime, formatMoney } from '../lib/format.ts';
import { readFailure, useTRPC } from '../lib/trpc.ts';
import { RequireSession } from '../session.tsx';
import { Button, FailureNotice, Field, Form, Loading, Notice, Page } from '../ui.tsx';

function BookingList() {
  const trpc = useTRPC();
  const bookings = useQuery(trpc.customer.bookings.list.queryOptions({ limit: 50 }));
  const t = useText();
  if (bookings.isPending) return <Loading what={t('bookings.loading')} />;
  if (bookings.isError) return <FailureNotice failure={readFailure(bookings.error)} />;
  return (
    <Page title={t('bookings.title')}>
      {bookings.data.data.length === 0 ? <p>{t('bookings.none')}</p> : null}
      <ul className="list">
        {bookings.data.data.map((booking) => (
          <li key={booking.id} className="card">
            <p>
              <Link to="/account/bookings/$id" params={{ id: booking.id }}>
                {booking.service.name}
              </Link>{' '}
              · {formatDateTime(booking.startsAt, booking.timezone)} ·{' '}
              {t('bookings.statusName', booking.status)}
            </p>
            <p className="muted">
              {booking.quantity} · {formatMoney(booking.price.totalInCents, booking.price.currency)}
              {booking.hasPendingChangeRequest ? t('bookings.changeRequested') : ''}
            </p>
          </li>
        ))}
      </ul>
    </Page>
  );
}

export function BookingsPage() {
  return (
    <RequireSession>
      <BookingList />
    </RequireSession>
  );
}

function BookingDetail() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { id } = useParams({ from: '/account/bookings/$id' });
  const booking = useQuery(trpc.customer.bookings.get.queryOptions({ id }));
  const cancel = useMutation(
    trpc.customer.bookings.cancelRequest.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.customer.bookings.get.queryKey({ id }) }),
    }),
  );
  const [done, setDone] = useState(false);
  const t = useText();
  if (booking.isPending) return <Loading what={t('bookings.loadingOne')} />;
  if (booking.isError)
    return readFailure(booking.error).status === 404 ? (
      <Page title={t('bookings.notFound')}>
        <p>
          <Link to="/account/bookings">{t('bookings.seeBookings')}</Link>
        </p>
      </Page>
    ) : (
      <FailureNotice failure={readFailure(booking.error)} />
    );
  const detail = booking.data;
  const money = (cents: number) => formatMoney(cents, detail.price.currency);
  return (
    <Page title={detail.service.name}>
      <p>
        <Link to="/account/bookings">{t('bookings.all')}</Link>
      </p>
      <dl className="facts">
        <dt>{t('bookings.booking')}</dt>
        <dd>{detail.code}</dd>
        <dt>{t('bookings.status')}</dt>
        <dd>{t('bookings.statusName', detail.status)}</dd>
        <dt>{t('bookings.starts')}</dt>
        <dd>{formatDateTime(detail.startsAt, detail.timezone)}</dd>
        <dt>{t('bookings.ends')}</dt>
        <dd>{formatDateTime(detail.endsAt, detail.timezone)}</dd>
        <dt>{t('bookings.quantity')}</dt>
        <dd>{detail.quantity}</dd>
        {detail.resources.length > 0 ? (
          <>
            <dt>{t('booking.with')}</dt>
            <dd>{detail.resources.map((resource) => resource.name).join(', ')}</dd>
          </>
        ) : null}
        <dt>{t('booking.total')}</dt>
        <dd>{money(detail.price.totalInCents)}</dd>
        {detail.payment ? (
          <>
            <dt>{t('bookings.payment')}</dt>
            <dd>{t('bookings.paymentStatusName', detail.payment.paymentStatus)}</dd>
          </>
        ) : null}
      </dl>
      {detail.changeRequests.length > 0 ? (
        <>
          <h2>{t('bookings.changeRequests')}</h2>
          <ul>
            {detail.changeRequests.map((request) => (
              <li key={request.id}>
                {t('bookings.requestKindName', request.kind)}:{' '}
                {t('bookings.requestStatusName', request.status)}
                {request.decisionReason ? t('bookings.decisionReason', request.decisionReason) : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {done ? <Notice tone="success">{t('bookings.done')}</Notice> : null}
      {detail.actions.cancel !== 'NONE' ? (
        <Form
          aria-label={t('bookings.cancelLabel')}
          onSubmit={(event) => {
            event.preventDefault();
            const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
            cancel.mutate({ id, ...(reason ? { reason } : {}) }, { onSuccess: () => setDone(true) });
          }}
        >
          <h2>{detail.actions.cancel === 'APPLY' ? t('bookings.cancelLabel') : t('bookings.askToCancel')}</h2>
          <Field name="reason" label={t('bookings.reason')} maxLength={500} />
          <FailureNotice failure={cancel.isError ? readFailure(cancel.error) : undefined} />
          <div className="actions">
            <Button type="submit" variant="danger" isDisabled={cancel.isPending}>
              {detail.actions.cancel === 'APPLY' ? t('bookings.cancel') : t('bookings.sendCancel')}
            </Button>
          </div>
        </Form>
      ) : null}
    </Page>
  );
}

export function BookingDetailPage() {
  return (
    <RequireSession>
      <BookingDetail />
    </RequireSession>
  );
}
