import {
  bookingPaymentSummarySchema,
  bookingPaymentTokenInputSchema,
  readBookingPaymentSummary,
} from '@commerce/bookings';
import { tenantProcedure } from '../../../trpc.ts';

export const paymentProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/booking-payments/{token}',
      tags: ['Public: bookings'],
      summary: 'What a booking payment link pays for',
      description:
        'By the link’s `c1_` (its credential, as the checkout session read): the amount, when the link ends, and each booking it pays, as the customer reads it (service, time in the service zone, duration, resources, total, paid, balance). An unknown token, another store’s, or a checkout that pays no booking is the neutral `404`.',
    },
    rateLimit: 'public-checkout',
  })
  .input(bookingPaymentTokenInputSchema)
  .output(bookingPaymentSummarySchema)
  .query(async ({ ctx, input }) =>
    readBookingPaymentSummary(
      ctx.db,
      { organizationId: ctx.tenant.organizationId, at: ctx.clock.now() },
      input.token,
    ),
  );
