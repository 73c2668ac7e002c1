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
        'The `x-idempotency-key` must be the key the hold was created with: it proves possession (another key, an unknown id or another store’s hold is the neutral `404`) and makes the conversion happen once; a replay describes the booking as it is now (a `PAYMENT` replay gets a new `c1_` for the same checkout, never a second payment intent). A service with an agreement needs its current version accepted (`409 AGREEMENT_REQUIRED`).',
        'The price is frozen from the service pricing in force, the hold’s delivery fee and the tax of the configured tax provider. `flow` says what follows: `TERMINAL` (no booking, see `terminalReason`), `REQUEST` (awaits the merchant, nothing held), `PAYMENT` (pay through `checkoutToken` before `paymentExpiresAt`, the claim kept until then) or `CONFIRMED`. Non-terminal flows email the customer a management link and the merchant a notice. A valid customer session of the store links the booking to that customer.',
      ].join('\n\n'),
    },
    rateLimit: 'public-checkout',
    idempotencyKey: 'required',
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
