import {
  merchantBookingDetailSchema,
  rescheduleBooking,
  rescheduleBookingInputSchema,
} from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { ANSWER, KEY_OPTIONAL, NOTIFY, STAFF_MUTATION, TAGS } from './docs.ts';

export const rescheduleProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/reschedule',
      tags: TAGS,
      summary: 'Move a booking',
      description: [
        `Body \`{ startsAt, endsAt, resourceSelections?, ignoreRules?, notifyCustomer? }\` (ISO 8601 with an offset, whole minute; \`endsAt\` after \`startsAt\`). ${NOTIFY} ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
        "Only `CONFIRMED` bookings move (`REQUESTED`, `PENDING_PAYMENT` and terminal ones: `409 INVALID_STATE_TRANSITION`). The duration may change, the price does not. Hours, closures, lead time and maximum advance are checked unless `ignoreRules` (`409 BOOKING_SLOT_UNAVAILABLE`). The claim moves in one transaction (release, then claim under the capacity lock), so a move overlapping the booking's own interval competes only with others; not claimable: `409 CAPACITY_UNAVAILABLE` and the booking keeps its interval and claim.",
        `Audited as \`booking.rescheduled\` with the old and new intervals. ${ANSWER}`,
      ].join('\n\n'),
    },
    errors: [
      'BOOKING_SLOT_UNAVAILABLE',
      'CAPACITY_UNAVAILABLE',
      'IDEMPOTENCY_KEY_REUSED',
      'INVALID_STATE_TRANSITION',
      'STALE_STATE',
    ],
  })
  .input(rescheduleBookingInputSchema)
  .output(merchantBookingDetailSchema)
  .mutation(({ ctx, input }) => {
    const { id, notifyCustomer, ...body } = input;
    return mutateBooking(
      ctx,
      { id, operation: 'POST /merchant/bookings/:id/reschedule', body: { ...body, notifyCustomer } },
      (trx, bookingCtx) =>
        rescheduleBooking(
          trx,
          bookingCtx,
          id,
          {
            startsAt: new Date(body.startsAt),
            endsAt: new Date(body.endsAt),
            ignoreRules: body.ignoreRules,
            ...(body.resourceSelections ? { resourceSelections: body.resourceSelections } : {}),
          },
          merchantBy(ctx, { notifyCustomer }),
        ),
    );
  });
