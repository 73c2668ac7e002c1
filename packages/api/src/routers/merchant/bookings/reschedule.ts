import {
  merchantBookingDetailSchema,
  rescheduleBooking,
  rescheduleBookingInputSchema,
} from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { KEY_OPTIONAL, STAFF_MUTATION, TAGS } from './docs.ts';

export const rescheduleProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/reschedule',
      tags: TAGS,
      summary: 'Move a booking',
      description: `Only \`CONFIRMED\` bookings move; the duration may change, the price does not. Hours, closures, lead time and maximum advance are checked unless \`ignoreRules\`. The claim moves in one transaction, so the booking competes only with others for its own interval; not claimable is \`409 CAPACITY_UNAVAILABLE\` and nothing changes. ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
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
