import {
  approveChangeRequest,
  changeRequestActionInputSchema,
  merchantBookingDetailSchema,
} from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { ANSWER, KEY_OPTIONAL, STAFF_MUTATION, TAGS } from './docs.ts';

export const approveChangeRequestProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/change-requests/{changeRequestId}/approve',
      tags: TAGS,
      summary: "Approve a customer's change request",
      description: `No body. ${KEY_OPTIONAL} ${STAFF_MUTATION}\n\nThe \`PENDING\` request becomes \`APPROVED\` and is applied: a cancel cancels the booking (as the cancel route), a reschedule moves it to the interval asked for (capacity checked, rules not: \`409 CAPACITY_UNAVAILABLE\` leaves the request pending and the booking unchanged). A request already decided, or a booking whose status no longer allows it, is \`409 INVALID_STATE_TRANSITION\`; an unknown request of this booking \`404\`. The customer is emailed. Audited as \`booking.change_request_approved\`. ${ANSWER}`,
    },
    errors: ['CAPACITY_UNAVAILABLE', 'IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION', 'STALE_STATE'],
  })
  .input(changeRequestActionInputSchema)
  .output(merchantBookingDetailSchema)
  .mutation(({ ctx, input }) =>
    mutateBooking(
      ctx,
      {
        id: input.id,
        operation: 'POST /merchant/bookings/:id/change-requests/:changeRequestId/approve',
        body: { changeRequestId: input.changeRequestId },
      },
      (trx, bookingCtx) =>
        approveChangeRequest(trx, bookingCtx, input.id, input.changeRequestId, merchantBy(ctx)),
    ),
  );
