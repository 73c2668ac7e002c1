import type { AppRouter } from '@commerce/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { FieldError, Label, TextArea, TextField } from 'react-aria-components';
import { type MessageKey, t, useText } from '../i18n/index.ts';
import { cancelRequestInputSchema } from '../lib/checkout-schemas.ts';
import { formatDate, formatDateTime, formatMoney, formatTime } from '../lib/format.ts';
import { fieldErrors } from '../lib/schemas.ts';
import { type ApiFailure, readFailure, useTRPC } from '../lib/trpc.ts';
import { Button, FailureNotice, Form, Loading, Notice, Page } from '../ui.tsx';
import '../checkout.css';

type Booking = inferRouterOutputs<AppRouter>['customer']['guestBookings']['get'];
type Slot = inferRouterOutputs<AppRouter>['public']['bookingAvailability']['search']['slots'][number];
type Outcome = `${'CANCEL' | 'RESCHEDULE'}_${'APPLIED' | 'REQUESTED'}`;

const OUTCOME_TEXT: Record<Outcome, MessageKey> = {
  CANCEL_APPLIED: 'manage.cancelApplied',
  CANCEL_REQUESTED: 'manage.cancelRequested',
  RESCHEDULE_APPLIED: 'manage.rescheduleApplied',
  RESCHEDULE_REQUESTED: 'manage.rescheduleRequested',
};

/** The booking's interval in the customer's locale, at the service's own time zone (named). */
function interval(booking: Booking): string {
  const zone = booking.timezone;
  const starts = formatDateTime(booking.startsAt, zone);
  return t('manage.interval', starts, formatTime(booking.endsAt, zone), zone.replaceAll('_', ' '));
}

function refusalText(failure: ApiFailure, details: unknown): string | undefined {
  const reason = (details as { reason?: string } | undefined)?.reason;
  if (failure.code !== 'INVALID_STATE_TRANSITION') return undefined;
  switch (reason) {
    case 'TOKEN_CONSUMED':
      return t('manage.tokenConsumed');
    case 'CHANGE_REQUEST_PENDING':
      return t('manage.changePending');
    case 'BOOKING_STARTED':
    case 'BOOKING_ENDED':
      return t('manage.started');
    case 'POLICY':
      return t('manage.policy');
    default:
      return t('manage.noLonger');
  }
}

/**
 * `/bookings/manage/<m1_ token>`: the emailed management link (docs/bookings.md "Customer and guest
 * routes"). Shows the booking and, when its policy allows, cancels it at once (`APPLY`) or asks the
 * store to (`REQUEST`). One token makes one change; the emails a change sends carry a fresh link.
 */
export function BookingManagePage({ token }: { token: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const booking = useQuery(trpc.customer.guestBookings.get.queryOptions({ token }));
  const cancel = useMutation(trpc.customer.guestBookings.cancelRequest.mutationOptions());
  const [confirming, setConfirming] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<{ failure: ApiFailure; details: unknown } | undefined>();
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [moving, setMoving] = useState(false);
  const t = useText();

  if (booking.isPending) return <Loading what={t('bookingCheckout.loading')} />;
  if (booking.isError) {
    const read = readFailure(booking.error);
    if (read.status === 404)
      return (
        <Page title={t('bookingCheckout.linkBrokenTitle')}>
          <p>{t('manage.linkBrokenText')}</p>
        </Page>
      );
    return <FailureNotice failure={read} />;
  }
  const current = booking.data;
  const money = (amount: number) => formatMoney(amount, current.price.currency);
  const action = current.actions.cancel;

  return (
    <Page title={t('manage.title', current.code)}>
      {outcome ? <Notice tone="success">{t(OUTCOME_TEXT[outcome])}</Notice> : null}
      <section className="card" aria-labelledby="booking-title">
        <h2 id="booking-title">{current.service.name}</h2>
        <dl className="facts">
          <dt>{t('bookings.status')}</dt>
          <dd>{t('bookings.statusName', current.status)}</dd>
          <dt>{t('booking.when')}</dt>
          <dd>{interval(current)}</dd>
          <dt>{t('bookings.quantity')}</dt>
          <dd>{current.quantity}</dd>
          {current.resources.length > 0 ? (
            <>
              <dt>{t('booking.with')}</dt>
              <dd>{current.resources.map((resource) => resource.name).join(', ')}</dd>
            </>
          ) : null}
          {current.delivery ? (
            <>
              <dt>{t('booking.delivery')}</dt>
              <dd>{t('manage.deliveryMethodName', current.delivery.method)}</dd>
            </>
          ) : null}
          <dt>{t('manage.bookedBy')}</dt>
          <dd>{t('manage.customer', current.customer.name, current.customer.email)}</dd>
          <dt>{t('booking.total')}</dt>
          <dd>{money(current.price.totalInCents)}</dd>
          {current.payment ? (
            <>
              <dt>{t('manage.paid')}</dt>
              <dd>{money(current.payment.paidInCents)}</dd>
              {current.payment.balanceDueInCents > 0 ? (
                <>
                  <dt>{t('manage.balanceDue')}</dt>
                  <dd>{money(current.payment.balanceDueInCents)}</dd>
                </>
              ) : null}
            </>
          ) : null}
          {current.requestExpiresAt ? (
            <>
              <dt>{t('manage.answersBy')}</dt>
              <dd>{formatDateTime(current.requestExpiresAt)}</dd>
            </>
          ) : null}
        </dl>
      </section>

      {current.changeRequests.length > 0 ? (
        <section aria-labelledby="changes-title">
          <h2 id="changes-title">{t('manage.changesAskedFor')}</h2>
          <ul className="list">
            {current.changeRequests.map((request) => (
              <li key={request.id}>
                {t(
                  'manage.change',
                  request.kind === 'CANCEL' ? t('manage.cancellation') : t('manage.newTime'),
                  t('bookings.requestStatusName', request.status),
                  formatDateTime(request.createdAt),
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {action === 'NONE' ? (
        outcome ? null : (
          <p className="muted">
            {current.status === 'CONFIRMED' ? t('manage.notOnlineContact') : t('manage.notOnline')}
          </p>
        )
      ) : confirming ? (
        <Form
          validationErrors={errors}
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
              setOutcome(`CANCEL_${result.outcome}`);
              setConfirming(false);
            } catch (error) {
              const details = (error as { data?: { details?: unknown } }).data?.details;
              setFailure({ failure: readFailure(error), details });
            }
          }}
        >
          <h2 id="cancel-title">
            {action === 'APPLY' ? t('manage.cancelTitle') : t('manage.askCancelTitle')}
          </h2>
          <p>{action === 'APPLY' ? t('manage.cancelAtOnce') : t('manage.storeDecides')}</p>
          <TextField name="reason" className="field" maxLength={500}>
            <Label>{t('bookings.reason')}</Label>
            <TextArea rows={3} />
            <FieldError className="field-error" />
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
              {action === 'APPLY' ? t('bookings.cancel') : t('manage.sendRequest')}
            </Button>
            <Button variant="secondary" onPress={() => setConfirming(false)}>
              {t('manage.keepBooking')}
            </Button>
          </div>
        </Form>
      ) : moving ? null : (
        <div className="actions">
          <Button variant="danger" onPress={() => setConfirming(true)}>
            {action === 'APPLY' ? t('bookings.cancel') : t('bookings.askToCancel')}
          </Button>
        </div>
      )}
      {current.actions.reschedule !== 'NONE' && !outcome && !confirming ? (
        moving ? (
          <RescheduleForm
            token={token}
            booking={current}
            onDone={(result) => {
              setOutcome(`RESCHEDULE_${result}`);
              setMoving(false);
            }}
            onClose={() => setMoving(false)}
          />
        ) : (
          <div className="actions">
            <Button variant="secondary" onPress={() => setMoving(true)}>
              {current.actions.reschedule === 'APPLY' ? t('manage.move') : t('manage.askMove')}
            </Button>
          </div>
        )
      ) : null}
    </Page>
  );
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Moving a booking: a day, then the times the service offers that day (its availability
 * search, in the service's time zone, for the booked quantity and duration), then reschedule-request.
 * The booking's own claim still counts in the search (the move itself releases it); the server
 * checks the move again.
 */
function RescheduleForm({
  token,
  booking,
  onDone,
  onClose,
}: {
  token: string;
  booking: Booking;
  onDone: (outcome: 'APPLIED' | 'REQUESTED') => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const service = useQuery(trpc.public.bookingServices.get.queryOptions({ slug: booking.service.slug }));
  const search = useMutation(trpc.public.bookingAvailability.search.mutationOptions());
  const reschedule = useMutation(trpc.customer.guestBookings.rescheduleRequest.mutationOptions());
  const [day, setDay] = useState(booking.startsAt.slice(0, 10));
  const [slots, setSlots] = useState<Slot[] | undefined>();
  const [chosen, setChosen] = useState<Slot | undefined>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<{ failure: ApiFailure; details: unknown } | undefined>();
  const durationMinutes = Math.round((Date.parse(booking.endsAt) - Date.parse(booking.startsAt)) / MINUTE);
  const apply = booking.actions.reschedule === 'APPLY';
  const t = useText();

  const findTimes = async () => {
    setFailure(undefined);
    setChosen(undefined);
    const midnight = Date.parse(`${day}T00:00:00Z`);
    if (Number.isNaN(midnight) || !service.data) return;
    try {
      // A window around the day in every offset; the slots come in the service's time zone, so
      // their own date says which local day they start on.
      const result = await search.mutateAsync({
        serviceId: booking.service.id,
        startsAt: new Date(midnight - DAY).toISOString().replace('.000Z', '+00:00'),
        endsAt: new Date(midnight + 2 * DAY).toISOString().replace('.000Z', '+00:00'),
        timezone: booking.timezone,
        quantity: booking.quantity,
        ...(service.data.periodMode === 'FIXED_SLOT' ? {} : { durationMinutes }),
      });
      setSlots(result.slots.filter((slot) => slot.startsAt.slice(0, 10) === day));
    } catch (error) {
      setFailure({ failure: readFailure(error), details: undefined });
    }
  };

  const timeOf = (slot: Slot) => formatTime(slot.startsAt, booking.timezone);

  return (
    <Form
      validationErrors={errors}
      aria-labelledby="move-title"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!chosen) {
          setErrors({ form: t('manage.chooseTime') });
          return;
        }
        const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
        // The reschedule body's reason is the cancel body's (one schema, 500 characters).
        const parsed = cancelRequestInputSchema.safeParse(reason === '' ? {} : { reason });
        if (!parsed.success) {
          setErrors(fieldErrors(parsed.error));
          return;
        }
        setErrors({});
        try {
          const result = await reschedule.mutateAsync({
            token,
            startsAt: chosen.startsAt,
            endsAt: chosen.endsAt,
            ...parsed.data,
          });
          queryClient.setQueryData(trpc.customer.guestBookings.get.queryKey({ token }), result.booking);
          onDone(result.outcome);
        } catch (error) {
          const read = readFailure(error);
          const details = (error as { data?: { details?: unknown } }).data?.details;
          if (read.code === 'CAPACITY_UNAVAILABLE' || read.code === 'BOOKING_SLOT_UNAVAILABLE') {
            setFailure({
              failure: { ...read, message: t('manage.timeTaken') },
              details,
            });
            void findTimes();
          } else setFailure({ failure: read, details });
        }
      }}
    >
      <h2 id="move-title">{apply ? t('manage.move') : t('manage.askMove')}</h2>
      <div className="field">
        <label htmlFor="move-day">{t('manage.newDate')}</label>
        <input
          id="move-day"
          type="date"
          value={day}
          onChange={(event) => {
            setDay(event.currentTarget.value);
            setSlots(undefined);
          }}
        />
      </div>
      <div className="actions">
        <Button
          variant="secondary"
          onPress={() => void findTimes()}
          isDisabled={search.isPending || !service.data}
        >
          {t('manage.findTimes')}
        </Button>
      </div>
      {slots === undefined ? null : slots.length === 0 ? (
        <p role="status">{t('manage.noTimes')}</p>
      ) : (
        <fieldset className="card radio-list slots">
          <legend>
            {t('manage.timesOn', formatDate(`${day}T12:00:00Z`), booking.timezone.replaceAll('_', ' '))}
          </legend>
          {slots.map((slot) => (
            <label key={slot.startsAt} className="radio">
              <input
                type="radio"
                name="slot"
                value={slot.startsAt}
                checked={chosen?.startsAt === slot.startsAt}
                onChange={() => {
                  setChosen(slot);
                  setErrors(({ form: _, ...rest }) => rest);
                }}
              />
              <span>{timeOf(slot)}</span>
            </label>
          ))}
        </fieldset>
      )}
      {errors.form ? <p className="field-error">{errors.form}</p> : null}
      <TextField name="reason" className="field" maxLength={500}>
        <Label>{t('bookings.reason')}</Label>
        <TextArea rows={2} />
        <FieldError className="field-error" />
      </TextField>
      {failure ? (
        refusalText(failure.failure, failure.details) ? (
          <Notice tone="error">{refusalText(failure.failure, failure.details)}</Notice>
        ) : (
          <FailureNotice failure={failure.failure} />
        )
      ) : null}
      <div className="actions">
        <Button type="submit" isDisabled={reschedule.isPending || !chosen}>
          {apply ? t('manage.moveBooking') : t('manage.sendRequest')}
        </Button>
        <Button variant="secondary" onPress={onClose}>
          {t('manage.keepTime')}
        </Button>
      </div>
    </Form>
  );
}
