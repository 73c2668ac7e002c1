import { cancelBooking, decideBookingInputSchema, merchantBookingDetailSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { KEY_OPTIONAL, STAFF_MUTATION, TAGS } from './docs.ts';

export const cancelProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/cancel',
      tags: TAGS,
      summary: 'Cancel a booking',
      description: `A confirmed booking's claim is released (no automatic refund); a \`PENDING_PAYMENT\` booking's payment is closed. A pending change request is withdrawn. A \`REQUESTED\` booking is declined instead (\`409\`). ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
    },
    errors: ['IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION', 'STALE_STATE'],
  })
  .input(decideBookingInputSchema)
  .output(merchantBookingDetailSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...body } = input;
    return mutateBooking(
      ctx,
      { id, operation: 'POST /merchant/bookings/:id/cancel', body },
      (trx, bookingCtx) => cancelBooking(trx, bookingCtx, id, merchantBy(ctx, body)),
    );
  });
