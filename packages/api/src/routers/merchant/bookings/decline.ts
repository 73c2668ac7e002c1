import { decideBookingInputSchema, declineBooking, merchantBookingDetailSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { KEY_OPTIONAL, STAFF_MUTATION, TAGS } from './docs.ts';

export const declineProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/decline',
      tags: TAGS,
      summary: 'Decline a booking request',
      description: `Only a \`REQUESTED\` booking, not a group member, is declined. ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
    },
    errors: ['IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION', 'STALE_STATE'],
  })
  .input(decideBookingInputSchema)
  .output(merchantBookingDetailSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...body } = input;
    return mutateBooking(
      ctx,
      { id, operation: 'POST /merchant/bookings/:id/decline', body },
      (trx, bookingCtx) => declineBooking(trx, bookingCtx, id, merchantBy(ctx, body)),
    );
  });
