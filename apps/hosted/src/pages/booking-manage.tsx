import type { AppRouter } from '@commerce/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { Form, Label, TextArea, TextField } from 'react-aria-components';
import { cancelRequestInputSchema } from '../lib/checkout-schemas.ts';
import { formatDateTime, formatMoney, humanize } from '../lib/format.ts';
import { fieldErrors } from '../lib/schemas.ts';
import { type ApiFailure, readFailure, useTRPC } from '../lib/trpc.ts';
import { Button, FailureNotice, Loading, Notice, Page } from '../ui.tsx';
import '../checkout.css';

type Booking = inferRouterOutputs<AppRouter>['customer']['guestBookings']['get'];

/** The booking's interval in the customer's locale, at the service's own time zone (named). */
function interval(booking: Booking): string {
  const zone = booking.timezone;
  const starts = formatDateTime(booking.startsAt, zone);
  const ends = new Intl.DateTimeFormat(undefined, { timeStyle: 'short', timeZone: zone }).format(
    new Date(booking.endsAt),
  );
  return `${starts} to ${ends} (${zone.replaceAll('_', ' ')} time)`;
}

function refusalText(failure: ApiFailure, details: unknown): string | undefined {
  const reason = (details as { reason?: string } | undefined)?.reason;
  if (failure.code !== 'INVALID_STATE_TRANSITION') return undefined;
  switch (reason) {
    case 'TOKEN_CONSUMED':
      return 'This link was already used for a change. Use the link in the newest email about this booking.';
    case 'CHANGE_REQUEST_PENDING':
      return 'A change you asked for is still waiting for the store.';
    case 'BOOKING_STARTED':
    case 'BOOKING_ENDED':
      return 'This booking has started: it can no longer be changed here.';
    case 'POLICY':
      return 'This booking cannot be cancelled online. Contact the store.';
    default:
      return 'This booking can no longer be changed.';
  }
}

/**
 * `/bookings/manage/<m1_ token>`: the emailed management link (CONTRACT-bookings.md 14.17). Shows
 * the booking and, when its policy allows, cancels it at once (`APPLY`) or asks the store to
 * (`REQUEST`). One token makes one change; the emails a change sends carry a fresh link.
 */
export function BookingManagePage({ token }: { token: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const booking = useQuery(trpc.customer.guestBookings.get.queryOptions({ token }));
  const cancel = useMutation(trpc.customer.guestBookings.cancelRequest.mutationOptions());
  const [confirming, setConfirming] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<{ failure: ApiFailure; details: unknown } | undefined>();
  const [outcome, setOutcome] = useState<'APPLIED' | 'REQUESTED' | undefined>();

  if (booking.isPending) return <Loading what="your booking" />;
  if (booking.isError) {
    const read = readFailure(booking.error);
    if (read.status === 404)
      return (
        <Page title="This booking link does not work">
          <p>
            It may have expired, or a newer email about this booking replaced it. Use the link in the newest
            email, or contact the store.
          </p>
        </Page>
      );
    return <FailureNotice failure={read} />;
  }
  const current = booking.data;
  const money = (amount: number) => formatMoney(amount, current.price.currency);
  const action = current.actions.cancel;

  return (
    <Page title={`Booking ${current.code}`}>
      {outcome === 'APPLIED' ? (
        <Notice tone="success">Your booking is cancelled. We emailed you a confirmation.</Notice>
      ) : outcome === 'REQUESTED' ? (
        <Notice tone="success">We asked the store to cancel your booking. We email you its answer.</Notice>
      ) : null}
      <section className="card" aria-labelledby="booking-title">
        <h2 id="booking-title">{current.service.name}</h2>
        <dl className="facts">
          <dt>Status</dt>
          <dd>{humanize(current.status)}</dd>
          <dt>When</dt>
          <dd>{interval(current)}</dd>
          <dt>Quantity</dt>
          <dd>{current.quantity}</dd>
          {current.resources.length > 0 ? (
            <>
              <dt>With</dt>
              <dd>{current.resources.map((resource) => resource.name).join(', ')}</dd>
            </>
          ) : null}
          {current.delivery ? (
            <>
              <dt>Delivery</dt>
              <dd>{humanize(current.delivery.method)}</dd>
            </>
          ) : null}
          <dt>Booked by</dt>
          <dd>
            {current.customer.name} ({current.customer.email})
          </dd>
          <dt>Total</dt>
          <dd>{money(current.price.totalInCents)}</dd>
          {current.payment ? (
            <>
              <dt>Paid</dt>
              <dd>{money(current.payment.paidInCents)}</dd>
              {current.payment.balanceDueInCents > 0 ? (
                <>
                  <dt>Balance due</dt>
                  <dd>{money(current.payment.balanceDueInCents)}</dd>
                </>
              ) : null}
            </>
          ) : null}
          {current.requestExpiresAt ? (
            <>
              <dt>Store answers by</dt>
              <dd>{formatDateTime(current.requestExpiresAt)}</dd>
            </>
          ) : null}
        </dl>
      </section>

      {current.changeRequests.length > 0 ? (
        <section aria-labelledby="changes-title">
          <h2 id="changes-title">Changes asked for</h2>
          <ul className="list">
            {current.changeRequests.map((request) => (
              <li key={request.id}>
                {request.kind === 'CANCEL' ? 'Cancellation' : 'New time'}: {humanize(request.status)} (
                {formatDateTime(request.createdAt)})
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {action === 'NONE' ? (
        outcome ? null : (
          <p className="muted">
            This booking cannot be changed online
            {current.status === 'CONFIRMED' ? '. Contact the store to change it.' : '.'}
          </p>
        )
      ) : confirming ? (
        <Form
          validationErrors={errors}
          validationBehavior="aria"
          aria-labelledby="cancel-title"
          onSubmit={async (event) => {
            event.preventDefault();
            setFailure(undefined);
            const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
            const parsed = cancelRequestInputSchema.safeParse(reason === '' ? {} : { reason });
            if (!parsed.success) {
              setErrors(fieldErrors(parsed.error));
              return;
            }
            setErrors({});
            try {
              const result = await cancel.mutateAsync({ token, ...parsed.data });
              queryClient.setQueryData(trpc.customer.guestBookings.get.queryKey({ token }), result.booking);
              setOutcome(result.outcome);
              setConfirming(false);
            } catch (error) {
              const details = (error as { data?: { details?: unknown } }).data?.details;
              setFailure({ failure: readFailure(error), details });
            }
          }}
        >
          <h2 id="cancel-title">{action === 'APPLY' ? 'Cancel this booking' : 'Ask the store to cancel'}</h2>
          <p>
            {action === 'APPLY'
              ? 'The booking is cancelled at once. Refunds, if any, are up to the store.'
              : 'The store decides; we email you its answer.'}
          </p>
          <TextField name="reason" className="field" maxLength={500}>
            <Label>Reason (optional)</Label>
            <TextArea rows={3} />
          </TextField>
          {failure ? (
            refusalText(failure.failure, failure.details) ? (
              <Notice tone="error">{refusalText(failure.failure, failure.details)}</Notice>
            ) : (
              <FailureNotice failure={failure.failure} />
            )
          ) : null}
          <div className="actions">
            <Button type="submit" variant="danger" isDisabled={cancel.isPending}>
              {action === 'APPLY' ? 'Cancel booking' : 'Send the request'}
            </Button>
            <Button variant="secondary" onPress={() => setConfirming(false)}>
              Keep booking
            </Button>
          </div>
        </Form>
      ) : (
        <div className="actions">
          <Button variant="danger" onPress={() => setConfirming(true)}>
            {action === 'APPLY' ? 'Cancel booking' : 'Ask to cancel'}
          </Button>
        </div>
      )}
      {current.actions.reschedule !== 'NONE' && !outcome ? (
        <p className="muted small">To move this booking to another time, contact the store.</p>
      ) : null}
    </Page>
  );
}
