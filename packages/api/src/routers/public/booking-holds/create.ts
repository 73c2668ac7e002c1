import { createHold, createHoldInputSchema, holdSchema } from '@commerce/bookings';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import { storeCurrency } from '../../../store-currency.ts';
import { optionalCustomer, tenantProcedure } from '../../../trpc.ts';
import { KEY, TAGS } from './docs.ts';

export const createProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/booking-holds',
      tags: TAGS,
      summary: 'Hold an interval of a booking service',
      description: [
        `${KEY} It is the hold's own key: the same key with the same body answers the hold again (\`201\`, \`idempotent-replayed: true\`, fresh \`serverTime\`, \`expiresInSeconds\` and \`status\`), with another body \`409 IDEMPOTENCY_KEY_REUSED\`; release needs it.`,
        'Body: `serviceId` (an `ACTIVE` service, else the neutral `404`), `startsAt`, `endsAt` (ISO 8601 with an offset, on a whole minute), `quantity` (within the service `partySize`), `resourceSelections[] { requirementId, resourceId, quantity }` (optional, at most 20: only for `OPTIONAL` and `REQUIRED` requirements, from their pools, summing to the requirement units; a `REQUIRED` requirement needs one), `customerEmail` (at most 320), `delivery` (optional). Unknown keys are `400`.',
        'Delivery: absent, `null` or `{ method: PICKUP }` is pickup (a pickup carrying `destinationAddress` is `400 VALIDATION_FAILED`); `{ method: DELIVERY, destinationAddress { line1, line2?, city, state?, postalCode, country } }` delivers (strings trimmed, at most 300 for the lines, 200 for city and state, 32 for the postal code; `country` two letters, upper-cased). A method the service `delivery.mode` does not allow (`PICKUP_ONLY`: pickup only; `REQUIRED`: delivery only) is `400 BOOKING_DELIVERY_INVALID`. A flat-fee service charges `flatFeeInCents` without measuring; a banded one measures the driving distance from its origin (DISTANCE_PROVIDER) and charges the first band at or above it: an address it cannot place is `400 BOOKING_DELIVERY_DESTINATION_INVALID`, beyond the last band `400 BOOKING_DELIVERY_OUT_OF_RANGE`, a provider failure or timeout (DISTANCE_TIMEOUT_MS) `503 BOOKING_DELIVERY_UNAVAILABLE` with nothing held or recorded (retry with the same key). Each names `details.issues[].path` (`delivery`, `delivery.method`, `delivery.destinationAddress`).',
        'A valid customer session of the store (`Authorization: Bearer s1_…`, or the session cookie from an allowed origin) links the hold, and the booking made from it, to that customer; without one, or with an invalid one, the hold is a guest’s (never `401`).',
        'The interval must be one a search would offer now: its shape (a fixed slot, a start on the grid with a duration choice, or a range within the limits) else `400`; hours, closures, lead time and maximum advance else `409 BOOKING_SLOT_UNAVAILABLE` with `details.reason` (`OUTSIDE_HOURS`, `CLOSED`, `LEAD_TIME`, `MAX_ADVANCE`). Requirements without a selection are assigned automatically (best fit, ties by pool order); no free units: `409 CAPACITY_UNAVAILABLE`. A client holds at most 10 at once per client address and per `customerEmail`: its active holds and the unpaid (`PENDING_PAYMENT`) bookings converted from them, until they are paid, expire or are cancelled; beyond, `429` with `Retry-After` until the earliest is released. Holds a signed-in customer makes in their own verified email are counted apart from anyone else’s holds in that email, so others cannot use up the owner’s limit.',
        'Answers `201` with the hold: `status`, `serverTime`, `expiresAt` (the earlier of now + the service `holdMinutes` and `startsAt`: the claim stops counting then), `expiresInSeconds`, `serviceId`, `timezone` and `startsAt`/`endsAt` in its offset, `quantity`, `resources[]` (the `OPTIONAL` and `REQUIRED` requirements), `delivery { method, destinationAddress, distanceMeters, band { label, maxDistanceMeters }, feeInCents }` (pickup: nulls and fee 0; flat fee: the normalized address, null distance and band), `pricing` (`authoritative: false`: `subtotalInCents`, `deliveryFeeInCents`, `totalInCents` before tax, `depositInCents` of the total).',
      ].join('\n\n'),
    },
    successStatus: 201,
    rateLimit: 'public-checkout',
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
