import { getSettings } from '@commerce/admin';
import {
  bindCheckoutSession,
  bindCheckoutSessionInputSchema,
  checkoutSessionSchema,
  taxProviderFor,
} from '@commerce/orders';
import { rateLimitKey } from '@commerce/rate-limit';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS, TOKEN_NOTE } from './docs.ts';

export const bindProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/checkout/sessions/{token}/bind',
      tags: TAGS,
      summary: 'Freeze the total and reserve the stock (step 3)',
      description: [
        'Needs `email`, `customerName` and, when the cart ships, a `shippingCountry` with an option (else `400` naming each missing field). The cart is priced again: a changed price or fee, or a line no longer sellable, saves the new prices and answers `409 STALE_STATE` (show them and bind again). A configured tax provider adds tax, or records the tax the prices include.',
        `Tracked variants are reserved until \`expiresAt\` (CHECKOUT_HOLD_MINUTES after the first bind, then fixed). Concurrent checkouts of the last units never oversell: the others get \`409 INSUFFICIENT_STOCK\` naming the short lines. The units one client address holds at once are capped (CHECKOUT_MAX_HELD_UNITS_PER_CLIENT): a bind over the cap is \`429 RATE_LIMIT_EXCEEDED\` with \`Retry-After\` and \`details: { reason: 'HELD_UNITS_CAP', maxUnits, requestedUnits }\` (the cap and this bind's tracked units; a request-rate limit of the route has no \`details\`, and a cart whose \`requestedUnits\` pass \`maxUnits\` never binds, whatever the wait) and reserves nothing. A retry holds the stock once. ${TOKEN_NOTE}`,
      ].join('\n\n'),
    },
    rateLimit: 'public-checkout',
    errors: ['STALE_STATE', 'INSUFFICIENT_STOCK', 'INVALID_STATE_TRANSITION', 'RATE_LIMIT_EXCEEDED'],
  })
  .input(bindCheckoutSessionInputSchema)
  .output(checkoutSessionSchema)
  .mutation(async ({ ctx, input }) => {
    const at = ctx.clock.now();
    const settings = await getSettings(ctx.db, ctx.tenant.organizationId, at);
    return bindCheckoutSession(
      ctx.db,
      {
        organizationId: ctx.tenant.organizationId,
        at,
        email: customerEmailConfig(ctx),
        tax: taxProviderFor(ctx.config.checkout.taxProvider),
        taxIncludedInPrices: settings.checkoutSettings.taxIncludedInPrices,
        holdMinutes: ctx.config.checkout.holdMinutes,
        // The client as the rate limiter keys it: tenant and client address, hashed.
        client: {
          key: rateLimitKey([ctx.tenant.organizationId, ctx.request.clientIp]),
          maxHeldUnits: ctx.config.checkout.maxHeldUnitsPerClient,
        },
      },
      input,
    );
  });
