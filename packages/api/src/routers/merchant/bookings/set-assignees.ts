import { assigneesInputSchema, merchantBookingDetailSchema, setBookingAssignees } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantBy, mutateBooking } from './booking-mutation.ts';
import { KEY_OPTIONAL, STAFF_MUTATION, TAGS } from './docs.ts';

export const setAssigneesProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'PUT',
      path: '/merchant/bookings/{id}/assignees',
      tags: TAGS,
      summary: "Replace a booking's assignees",
      description: `Replaces the list; assigned Staff see the booking and, with \`bookings:manage\`, act on it. ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
    },
    errors: ['IDEMPOTENCY_KEY_REUSED', 'STALE_STATE'],
  })
  .input(assigneesInputSchema)
  .output(merchantBookingDetailSchema)
  .mutation(({ ctx, input }) =>
    mutateBooking(
      ctx,
      { id: input.id, operation: 'PUT /merchant/bookings/:id/assignees', body: { userIds: input.userIds } },
      (trx, bookingCtx) => setBookingAssignees(trx, bookingCtx, input.id, input.userIds, merchantBy(ctx)),
    ),
  );
