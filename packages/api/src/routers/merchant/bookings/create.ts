import { getSettings } from '@commerce/admin';
import {
  createMerchantBooking,
  createMerchantBookingInputSchema,
  merchantBookingDetailSchema,
} from '@commerce/bookings';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import { taxProviderFor } from '@commerce/orders';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantActor } from '../../../write-context.ts';
import { bookingTransitionContext } from './booking-mutation.ts';
import { TAGS } from './docs.ts';

export const createProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings',
      tags: TAGS,
      summary: 'Book on behalf of a customer',
      description: [
        'The `x-idempotency-key` is required: the same key and body replay the booking, read fresh. Delivery is checked and rated as for a public hold (`ignoreRules` never skips it); when the distance provider fails nothing is booked (retry with the same key).',
        "Hours, closures, lead time and maximum advance are checked unless `ignoreRules`; capacity always. The booking is `CONFIRMED` with its price frozen (service pricing, delivery fee, the configured tax provider's tax) and its balance open; the customer is emailed a management link. Staff need `bookings:manage`.",
      ].join('\n\n'),
    },
    successStatus: 201,
    idempotencyKey: 'required',
    errors: [
      'BOOKING_DELIVERY_INVALID',
      'BOOKING_DELIVERY_DESTINATION_INVALID',
      'BOOKING_DELIVERY_OUT_OF_RANGE',
      'BOOKING_DELIVERY_UNAVAILABLE',
      'BOOKING_SLOT_UNAVAILABLE',
      'CAPACITY_UNAVAILABLE',
      'IDEMPOTENCY_KEY_REUSED',
      'INVALID_STATE_TRANSITION',
      'STALE_STATE',
    ],
  })
  .input(createMerchantBookingInputSchema)
  .output(merchantBookingDetailSchema)
  .mutation(async ({ ctx, input }) => {
    const idempotencyKey = readIdempotencyKey(ctx.request.headers, { required: true });
    const { checkoutSettings } = await getSettings(ctx.db, ctx.tenant.organizationId, ctx.clock.now());
    const { booking, replayed } = await createMerchantBooking(ctx.db, bookingTransitionContext(ctx), input, {
      currency: checkoutSettings.currency,
      idempotencyKey,
      actor: merchantActor(ctx),
      distance: ctx.services.distance,
      tax: {
        provider: taxProviderFor(ctx.config.checkout.taxProvider),
        pricesIncludeTax: checkoutSettings.taxIncludedInPrices,
      },
    });
    if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return booking;
  });
