import {
  approveChangeRequest,
  changeRequestActionInputSchema,
  merchantBookingDetailSchema,
} from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { KEY_OPTIONAL, STAFF_MUTATION, TAGS } from './docs.ts';

export const approveChangeRequestProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/change-requests/{changeRequestId}/approve',
      tags: TAGS,
      summary: "Approve a customer's change request",
      description: `The pending request is approved and applied: a cancel as the cancel route, a reschedule to the interval asked for (capacity checked, rules not; \`409 CAPACITY_UNAVAILABLE\` leaves the request pending). The customer is emailed. ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
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
