import { approveBooking, approveBookingInputSchema, merchantBookingDetailSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { ANSWER, KEY_OPTIONAL, STAFF_MUTATION, TAGS } from './docs.ts';

export const approveProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/approve',
      tags: TAGS,
      summary: 'Approve a booking request',
      description: [
        `Body \`{ resourceSelections?, note? }\` (note at most 500, sent to the customer and kept in history). ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
        '`REQUESTED` → `CONFIRMED` when nothing is due now (sales record `NOT_REQUIRED`, balance open) or `PENDING_PAYMENT` when an amount is (claimed until now + the service `approvedPaymentWindowHours`, not after `startsAt`; the payment link is emailed). Resources: those chosen, else those the booking was given, else others of the pools. Not claimable: `409 CAPACITY_UNAVAILABLE`, nothing changed. Another status, a group member, a request past its expiry or a booking already started: `409 INVALID_STATE_TRANSITION`.',
        `Audited as \`booking.approved\`. ${ANSWER}`,
      ].join('\n\n'),
    },
    errors: ['CAPACITY_UNAVAILABLE', 'IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION', 'STALE_STATE'],
  })
  .input(approveBookingInputSchema)
  .output(merchantBookingDetailSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...body } = input;
    return mutateBooking(
      ctx,
      { id, operation: 'POST /merchant/bookings/:id/approve', body },
      (trx, bookingCtx) => approveBooking(trx, bookingCtx, id, body, merchantBy(ctx)),
    );
  });
