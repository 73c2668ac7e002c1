import { getSettings } from '@commerce/admin';
import {
  conversionSchema,
  convertHold,
  convertHoldInputSchema,
  convertHoldPathSchema,
} from '@commerce/bookings';
import { readSessionCookie, validateSessionToken } from '@commerce/customers';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import { taxProviderFor } from '@commerce/orders';
import type { ApiContext } from '../../../context.ts';
import { customerEmailConfig, hostedAppOrigin, httpOrigin } from '../../../hosted-origin.ts';
import { tenantProcedure } from '../../../trpc.ts';

const TAGS = ['Public: bookings'];

/**
 * The customer of a valid session of the tenant, if the conversion carries
 * one: a bearer `s1_…`, or the session cookie from the hosted app's origin.
 * Anything else is a guest (never 401). Narrow on purpose: bk-delivery's
 * `optionalCustomer` (trpc.ts) replaces it once merged, with the tenant's
 * allowed origins as well.
 */
async function sessionCustomerId(
  ctx: ApiContext,
  tenant: { organizationId: string; slug: string },
): Promise<string | null> {
  const authorization = ctx.request.headers.get('authorization');
  let token: string | null | undefined;
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    token = match?.[1];
  } else {
    const origin = httpOrigin(ctx.request.headers.get('origin') ?? '');
    if (origin === undefined || origin !== hostedAppOrigin(ctx.config.hostedCheckoutUrl, tenant.slug))
      return null;
    token = readSessionCookie(ctx.request.headers.get('cookie'));
  }
  if (!token) return null;
  const session = await validateSessionToken(
    ctx.db,
    { organizationId: tenant.organizationId, at: ctx.clock.now() },
    token,
  );
  return session?.customer.id ?? null;
}

export const convertProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/booking-holds/{id}/checkout',
      tags: TAGS,
      summary: 'Convert a hold into a booking',
      description: [
        'Header `x-idempotency-key` is required and must be the key the hold was created with: it proves possession (without it `400` on `headers.x-idempotency-key`; another key, an unknown id or another store’s hold is the neutral `404`) and makes the conversion happen once.',
        'Body: `customerName` (1 to 200), `customerEmail` (the hold’s, compared case-insensitively, else `400`), `customerPhone?` (at most 50), `billingAddress?` (`line1`, `line2?`, `city`, `state?`, `postalCode`, `country`), `customerNote?` (at most 2,000), `agreement?` `{ version, signerName, accepted: true }`. `delivery` is chosen on the hold: sending it is `400`, as is any unknown key. A service with an agreement needs its current `version` accepted, else `409 AGREEMENT_REQUIRED` with `details { serviceId, version }`. A hold whose delivery snapshot is missing or malformed is `409 STALE_STATE` (`details.reason` `DELIVERY_SNAPSHOT_INVALID`), changing nothing.',
        'The price is frozen from the service pricing in force, plus the hold’s delivery fee, plus tax from the store’s tax provider when one is configured (TAX_PROVIDER; the delivery’s country, else the business country; prices that include tax record it without adding it); a deposit is its share of that total.',
        'Answers `200` with `flow`: `TERMINAL` (no booking: the hold is not `ACTIVE` or expired, the service is not `ACTIVE`, or the claim was lost to expiry under the capacity lock; `terminalReason` `HOLD_EXPIRED`, `HOLD_RELEASED`, `SERVICE_UNAVAILABLE` or `CAPACITY_LOST`), `REQUEST` (manual approval, or pay-later with a positive total: booking `REQUESTED`, the claim released, no payment), `PAYMENT` (an amount due now: booking `PENDING_PAYMENT`, its claim kept until `paymentExpiresAt` = now + the service `paymentWindowMinutes`, not after `startsAt`; `checkoutToken` `c1_…` for `POST /public/checkout/sessions/{token}/payment-session`, bound to the due amount) or `CONFIRMED` (nothing due now). Also `bookingId`, `bookingStatus`, `amountDueNowInCents`, `remainingBalanceInCents`, `totalInCents`, `currency`.',
        'Non-terminal flows email the customer a management link (`BOOKING_NOTIFICATION`; `PAYMENT` carries the payment link) and the merchant `NEW_REQUEST` or `NEW_BOOKING`. A valid customer session of the store links the booking to that customer.',
        'The fields describe the booking’s present: a replay (same key and body; `idempotent-replayed: true`) of a `PENDING_PAYMENT` booking is `PAYMENT` with a new `c1_` for the same checkout (never a second payment intent), `CONFIRMED` and `REQUESTED` their flows, and a booking since declined, cancelled or expired `TERMINAL` with `BOOKING_DECLINED`, `BOOKING_CANCELLED` or `BOOKING_EXPIRED`. The same key with another body is `409 IDEMPOTENCY_KEY_REUSED`.',
      ].join('\n\n'),
    },
    rateLimit: 'public-checkout',
    errors: [
      'AGREEMENT_REQUIRED',
      'STALE_STATE',
      'CAPACITY_UNAVAILABLE',
      'IDEMPOTENCY_KEY_REUSED',
      'RESOURCE_NOT_FOUND',
    ],
  })
  .input(convertHoldPathSchema.extend(convertHoldInputSchema.shape).strict())
  .output(conversionSchema)
  .mutation(async ({ ctx, input }) => {
    const idempotencyKey = readIdempotencyKey(ctx.request.headers, { required: true });
    const { id, ...body } = input;
    const settings = await getSettings(ctx.db, ctx.tenant.organizationId, ctx.clock.now());
    const { conversion, replayed } = await convertHold(
      ctx.db,
      {
        organizationId: ctx.tenant.organizationId,
        at: ctx.clock.now(),
        email: customerEmailConfig(ctx),
        customerId: await sessionCustomerId(ctx, ctx.tenant),
      },
      id,
      body,
      {
        currency: settings.checkoutSettings.currency,
        idempotencyKey,
        tax: {
          provider: taxProviderFor(ctx.config.checkout.taxProvider),
          pricesIncludeTax: settings.checkoutSettings.taxIncludedInPrices,
        },
      },
    );
    if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return conversion;
  });
