import { cancelBooking, decideBookingInputSchema, merchantBookingDetailSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { ANSWER, KEY_OPTIONAL, NOTIFY, STAFF_MUTATION, TAGS } from './docs.ts';

export const cancelProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/cancel',
      tags: TAGS,
      summary: 'Cancel a booking',
      description: `Body \`{ reason?, notifyCustomer? }\`. ${NOTIFY} ${KEY_OPTIONAL} ${STAFF_MUTATION}\n\n\`CONFIRMED\` → \`CANCELLED\`, its claim released, no automatic refund; \`PENDING_PAYMENT\` → \`CANCELLED\`, its payment closed (sales record voided, checkout closed, the provider intent cancelled after commit). A pending change request is withdrawn. \`REQUESTED\` (decline it instead) and terminal statuses are \`409 INVALID_STATE_TRANSITION\`. Audited as \`booking.cancelled\`. ${ANSWER}`,
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
