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
        'Header `x-idempotency-key` (alias `Idempotency-Key`; 16 to 255 of `A-Z a-z 0-9 _ . : -`) is required, else `400`: the same key and body replay the booking (`201`, `idempotent-replayed: true`, read fresh), another body is `409 IDEMPOTENCY_KEY_REUSED`.',
        'Body: `serviceId` (`ACTIVE` or `DRAFT`; unknown: `404`; `ARCHIVED`: `409 INVALID_STATE_TRANSITION`), `startsAt`, `endsAt` (ISO 8601 with an offset, whole minute, the service shape: grid, duration choice or fixed slot, else `400`), `quantity` (within `partySize`), `resourceSelections?[] { requirementId, resourceId, quantity }`, `customer { name (1 to 200), email, phone? (50) }`, `delivery?`, `ignoreRules?` (default false). Unknown keys are `400`.',
        'Delivery as for `POST /public/booking-holds`: absent, `null` or `{ method: PICKUP }` is pickup (a pickup carrying `destinationAddress` is `400 VALIDATION_FAILED`); `{ method: DELIVERY, destinationAddress { line1, line2?, city, state?, postalCode, country } }` delivers. A method the service `delivery.mode` does not allow is `400 BOOKING_DELIVERY_INVALID`; a banded service measures the distance (DISTANCE_PROVIDER): an address it cannot place is `400 BOOKING_DELIVERY_DESTINATION_INVALID`, beyond the last band `400 BOOKING_DELIVERY_OUT_OF_RANGE`, a provider failure or timeout `503 BOOKING_DELIVERY_UNAVAILABLE` with nothing booked or recorded (retry with the same key); each names `details.issues[].path`. `ignoreRules` never skips the delivery checks. The delivery is rated only for a request that passes the checks below.',
        'Hours, closures, lead time and maximum advance are checked unless `ignoreRules` (`409 BOOKING_SLOT_UNAVAILABLE`, `details.reason`); capacity always (`409 CAPACITY_UNAVAILABLE`). The booking is `CONFIRMED`, its price frozen: the service pricing now, plus the delivery fee, plus tax from the store’s tax provider when one is configured (TAX_PROVIDER; the delivery’s country, else the business country; prices that include tax record it without adding it); its balance open (sales record `NOT_REQUIRED`); the customer is emailed a management link. Answers `201` with the merchant detail. Audited as `booking.created`. Staff need `bookings:manage`.',
      ].join('\n\n'),
    },
    successStatus: 201,
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
