import {
  customerBookingListQuerySchema,
  customerBookingSummarySchema,
  listCustomerBookings,
} from '@commerce/bookings';
import { pageSchema } from '@commerce/core';
import { customerProcedure } from '../../../trpc.ts';
import { owner } from './booking-changes.ts';
import { ACCOUNT_TAGS, OWNED } from './docs.ts';

export const accountListProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/bookings',
      tags: ACCOUNT_TAGS,
      summary: 'The customer’s bookings',
      description: `Summaries: the detail has the rest. ${OWNED}`,
    },
  })
  .input(customerBookingListQuerySchema)
  .output(pageSchema(customerBookingSummarySchema))
  .query(({ ctx, input }) =>
    listCustomerBookings(
      ctx.db,
      { organizationId: ctx.customer.organizationId, at: ctx.clock.now() },
      owner(ctx),
      input,
    ),
  );
