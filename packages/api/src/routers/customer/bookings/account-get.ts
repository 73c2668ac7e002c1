import { bookingDetailSchema, customerBookingIdInputSchema, getCustomerBooking } from '@commerce/bookings';
import { customerProcedure } from '../../../trpc.ts';
import { owner } from './booking-changes.ts';
import { ACCOUNT_TAGS, OWNED } from './docs.ts';

export const accountGetProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/bookings/{id}',
      tags: ACCOUNT_TAGS,
      summary: 'One of the customer’s bookings',
      description: `\`actions\` says what the customer may do now. ${OWNED}`,
    },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(customerBookingIdInputSchema)
  .output(bookingDetailSchema)
  .query(({ ctx, input }) =>
    getCustomerBooking(
      ctx.db,
      { organizationId: ctx.customer.organizationId, at: ctx.clock.now() },
      owner(ctx),
      input.id,
    ),
  );
