import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { formatDateTime, formatMoney, humanize } from '../lib/format.ts';
import { readFailure, useTRPC } from '../lib/trpc.ts';
import { RequireSession } from '../session.tsx';
import { Button, FailureNotice, Field, Form, Loading, Notice, Page } from '../ui.tsx';

function BookingList() {
  const trpc = useTRPC();
  const bookings = useQuery(trpc.customer.bookings.list.queryOptions({ limit: 50 }));
  if (bookings.isPending) return <Loading what="your bookings" />;
  if (bookings.isError) return <FailureNotice failure={readFailure(bookings.error)} />;
  return (
    <Page title="Your bookings">
      {bookings.data.data.length === 0 ? <p>You have no bookings.</p> : null}
      <ul className="list">
        {bookings.data.data.map((booking) => (
          <li key={booking.id} className="card">
            <p>
              <Link to="/account/bookings/$id" params={{ id: booking.id }}>
                {booking.service.name}
              </Link>{' '}
              · {formatDateTime(booking.startsAt, booking.timezone)} · {humanize(booking.status)}
            </p>
            <p className="muted">
              {booking.quantity} · {formatMoney(booking.price.totalInCents, booking.price.currency)}
              {booking.hasPendingChangeRequest ? ' · change requested' : ''}
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
  if (booking.isPending) return <Loading what="the booking" />;
  if (booking.isError)
    return readFailure(booking.error).status === 404 ? (
      <Page title="Booking not found">
        <p>
          <Link to="/account/bookings">See your bookings</Link>
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
        <Link to="/account/bookings">All bookings</Link>
      </p>
      <dl className="facts">
        <dt>Booking</dt>
        <dd>{detail.code}</dd>
        <dt>Status</dt>
        <dd>{humanize(detail.status)}</dd>
        <dt>Starts</dt>
        <dd>{formatDateTime(detail.startsAt, detail.timezone)}</dd>
        <dt>Ends</dt>
        <dd>{formatDateTime(detail.endsAt, detail.timezone)}</dd>
        <dt>Quantity</dt>
        <dd>{detail.quantity}</dd>
        {detail.resources.length > 0 ? (
          <>
            <dt>With</dt>
            <dd>{detail.resources.map((resource) => resource.name).join(', ')}</dd>
          </>
        ) : null}
        <dt>Total</dt>
        <dd>{money(detail.price.totalInCents)}</dd>
        {detail.payment ? (
          <>
            <dt>Payment</dt>
            <dd>{humanize(detail.payment.paymentStatus)}</dd>
          </>
        ) : null}
      </dl>
      {detail.changeRequests.length > 0 ? (
        <>
          <h2>Change requests</h2>
          <ul>
            {detail.changeRequests.map((request) => (
              <li key={request.id}>
                {humanize(request.kind)}: {humanize(request.status)}
                {request.decisionReason ? ` (${request.decisionReason})` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {done ? <Notice tone="success">Done: see the status above.</Notice> : null}
      {detail.actions.cancel !== 'NONE' ? (
        <Form
          aria-label="Cancel the booking"
          onSubmit={(event) => {
            event.preventDefault();
            const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
            cancel.mutate({ id, ...(reason ? { reason } : {}) }, { onSuccess: () => setDone(true) });
          }}
        >
          <h2>{detail.actions.cancel === 'APPLY' ? 'Cancel the booking' : 'Ask to cancel'}</h2>
          <Field name="reason" label="Reason (optional)" maxLength={500} />
          <FailureNotice failure={cancel.isError ? readFailure(cancel.error) : undefined} />
          <div className="actions">
            <Button type="submit" variant="danger" isDisabled={cancel.isPending}>
              {detail.actions.cancel === 'APPLY' ? 'Cancel booking' : 'Send cancellation request'}
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
