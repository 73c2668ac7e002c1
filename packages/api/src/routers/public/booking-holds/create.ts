import { createHold, createHoldInputSchema, holdSchema } from '@commerce/bookings';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import { storeCurrency } from '../../../store-currency.ts';
import { optionalCustomer, tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const createProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/booking-holds',
      tags: TAGS,
      summary: 'Hold an interval of a booking service',
      description: [
        'The `x-idempotency-key` is the hold’s own key: a replay answers the hold again with fresh `serverTime`, `expiresInSeconds` and `status`, and release needs it.',
        'The interval must be one a search would offer now (else `400` for its shape, `409 BOOKING_SLOT_UNAVAILABLE` for hours, closures, lead time or advance). Requirements without a selection are assigned automatically; no free units is `409 CAPACITY_UNAVAILABLE`. A banded delivery measures the driving distance and charges the first band that reaches it; when the distance provider fails the answer is `503 BOOKING_DELIVERY_UNAVAILABLE` and nothing is held (retry with the same key).',
        'A client holds at most 10 at once per client address and per `customerEmail` (active holds and the unpaid bookings made from them): beyond, `429` with `Retry-After`. A signed-in customer’s holds in their own verified email are counted apart, so others cannot use up their limit. A valid customer session of the store links the hold, and its booking, to that customer; an invalid one is a guest, never `401`.',
        'The claim stops counting at `expiresAt`: the earlier of now plus the service hold time and `startsAt`. `pricing` is a preview before tax.',
      ].join('\n\n'),
    },
    successStatus: 201,
    rateLimit: 'public-checkout',
    idempotencyKey: 'required',
    errors: [
      'BOOKING_DELIVERY_INVALID',
      'BOOKING_DELIVERY_DESTINATION_INVALID',
      'BOOKING_DELIVERY_OUT_OF_RANGE',
      'BOOKING_DELIVERY_UNAVAILABLE',
      'BOOKING_SLOT_UNAVAILABLE',
      'CAPACITY_UNAVAILABLE',
      'IDEMPOTENCY_KEY_REUSED',
      'STALE_STATE',
    ],
  })
  .input(createHoldInputSchema)
  .output(holdSchema)
  .mutation(async ({ ctx, input }) => {
    const idempotencyKey = readIdempotencyKey(ctx.request.headers, { required: true });
    const customer = await optionalCustomer(ctx, ctx.tenant);
    const { hold, replayed } = await createHold(
      ctx.db,
      {
        organizationId: ctx.tenant.organizationId,
        at: ctx.clock.now(),
        clientAddress: ctx.request.clientIp,
        customerId: customer?.id ?? null,
        customerVerifiedEmail: customer?.email ?? null,
      },
      input,
      {
        // Read with the service; the settings' defaults only when the store names no currency.
        currency: { fallback: () => storeCurrency(ctx, ctx.tenant.organizationId) },
        idempotencyKey,
        distance: ctx.services.distance,
      },
    );
    if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return hold;
  });
