import { approveBooking, approveBookingInputSchema, merchantBookingDetailSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { KEY_OPTIONAL, STAFF_MUTATION, TAGS } from './docs.ts';

export const approveProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/approve',
      tags: TAGS,
      summary: 'Approve a booking request',
      description: `A request becomes \`CONFIRMED\` when nothing is due now, else \`PENDING_PAYMENT\` with its payment link emailed and the claim kept for the service's payment window (not after \`startsAt\`). Resources: those chosen, else those the booking was given, else others of the pools; not claimable is \`409 CAPACITY_UNAVAILABLE\`, nothing changed. ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
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
