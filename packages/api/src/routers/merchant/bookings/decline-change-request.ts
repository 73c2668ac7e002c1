import {
  declineChangeRequest,
  declineChangeRequestInputSchema,
  merchantBookingDetailSchema,
} from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { KEY_OPTIONAL, STAFF_MUTATION, TAGS } from './docs.ts';

export const declineChangeRequestProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/change-requests/{changeRequestId}/decline',
      tags: TAGS,
      summary: "Decline a customer's change request",
      description: `The pending request is declined; the booking is unchanged. ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
    },
    errors: ['IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION', 'STALE_STATE'],
  })
  .input(declineChangeRequestInputSchema)
  .output(merchantBookingDetailSchema)
  .mutation(({ ctx, input }) =>
    mutateBooking(
      ctx,
      {
        id: input.id,
        operation: 'POST /merchant/bookings/:id/change-requests/:changeRequestId/decline',
        body: { changeRequestId: input.changeRequestId, reason: input.reason },
      },
      (trx, bookingCtx) =>
        declineChangeRequest(
          trx,
          bookingCtx,
          input.id,
          input.changeRequestId,
          merchantBy(ctx, { reason: input.reason ?? null }),
        ),
    ),
  );
