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
        `${TOKEN_NOTE} Body: optional \`shippingRateId\` (one of the session’s \`shippingOptions\`). Needs \`email\` and \`customerName\` on the session, and, when the store ships (\`shippingRequired\`), a \`shippingCountry\` with an option: otherwise \`400 VALIDATION_FAILED\` naming each missing field.`,
        'The cart is priced again from the catalog. If a line price or the shipping fee changed since the session was last priced, or a line is no longer sellable, the new prices are saved and the answer is `409 STALE_STATE`: show them and bind again. With a tax provider (TAX_PROVIDER=sandbox: a per-country rate on goods and shipping), tax is added to the total; when the store’s prices include tax (`checkoutSettings.taxIncludedInPrices`), the tax they hold is recorded in `taxInCents` with `taxIncluded: true` and the total stays subtotal + shipping. Without a provider `taxInCents` is 0.',
        'Tracked variants (`inventoryQuantity` not null; a `SERVICE` line only when its variant tracks inventory) are reserved: their available quantity goes down now and comes back if the session expires, is repriced, or its payment fails. Concurrent checkouts of the last units never oversell: one binds, the others get `409 INSUFFICIENT_STOCK` with `details.shortages[{ path, itemId, variantId, requestedQuantity }]` naming each short line (`lines.N`; the quantity available is never shown), and nothing is reserved for them. Binding again (a retry) holds the stock once.',
        'The hold lasts CHECKOUT_HOLD_MINUTES (default 15) from the session’s first bind, whatever the rebinds or reprices: `expiresAt` is then fixed, and the session expires (its stock released) at that time unless a payment started. The units held at once by the sessions one client address bound in the store are capped (CHECKOUT_MAX_HELD_UNITS_PER_CLIENT, default 20, counted on tracked variants, concurrent binds included): a bind over it is `429 RATE_LIMIT_EXCEEDED` with `Retry-After` (seconds until the client’s next hold ends) and reserves nothing.',
        `Answers \`200\` with the session \`BOUND\` and its frozen \`subtotalInCents\`, \`shippingInCents\`, \`taxInCents\`, \`totalInCents\`, \`currency\`. Then \`confirm-free\` (total 0) or \`payment-session\` (total above 0). After a payment started, and for a booking payment’s session (bound to the amount due), \`409 INVALID_STATE_TRANSITION\`.`,
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
