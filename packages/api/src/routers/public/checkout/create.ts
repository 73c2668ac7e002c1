import { getSettings } from '@commerce/admin';
import {
  createCheckoutSession,
  createCheckoutSessionInputSchema,
  createdCheckoutSessionSchema,
} from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { LINES_NOTE, SESSION_NOTE, TAGS } from './docs.ts';

export const createProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/checkout/sessions',
      tags: TAGS,
      summary: 'Start a checkout session (step 1)',
      description: [
        'Body: `lines` (1 to 100 of `{ itemId, variantId?, quantity }`, quantity 1 to 999; lines naming the same item and variant are merged), and optionally `email`, `customerName` (1 to 200), `customerPhone` (at most 50), `shippingCountry` (ISO 3166-1 alpha-2), `shippingRateId`. No names or prices: the server prices every line from the catalog. Each `itemId` must be an `ACTIVE`, unarchived item of the store; `variantId` a non-archived variant of it, required when the item has variants; otherwise `400 VALIDATION_FAILED` with one issue per bad line (`lines.N.itemId`, `lines.N.variantId`, `lines.N` for an item without a price). A `shippingRateId` that is not an option is `400` (path `shippingRateId`).',
        LINES_NOTE,
        `Answers \`201\` with the session (\`OPEN\`) and \`checkoutToken\`, a \`c1_\` capability shown only here (stored hashed): keep it as a credential; every later step takes it in the path. The session lives CHECKOUT_SESSION_TTL_MINUTES (default 60). ${SESSION_NOTE}`,
        'Nothing is reserved yet: stock is held from bind. Rate-limited per client (300 per 10 minutes across the checkout routes).',
      ].join('\n\n'),
    },
    successStatus: 201,
    rateLimit: 'public-checkout',
  })
  .input(createCheckoutSessionInputSchema)
  .output(createdCheckoutSessionSchema)
  .mutation(async ({ ctx, input }) => {
    const at = ctx.clock.now();
    const settings = await getSettings(ctx.db, ctx.tenant.organizationId, at);
    return createCheckoutSession(
      ctx.db,
      {
        organizationId: ctx.tenant.organizationId,
        currency: settings.checkoutSettings.currency,
        ttlMinutes: ctx.config.checkout.sessionTtlMinutes,
        at,
      },
      input,
    );
  });
