import { getSettings } from '@commerce/admin';
import {
  createCheckoutSession,
  createCheckoutSessionInputSchema,
  createdCheckoutSessionSchema,
} from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const createProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/checkout/sessions',
      tags: TAGS,
      summary: 'Start a checkout session (step 1)',
      description:
        'The server prices every line from the catalog: a client sends no names or prices. A `RENTAL` item is refused (`400`): rentals are booked through a booking service. Answers `201` with the session and its `checkoutToken` (`c1_…`), shown only here: every later step takes it in the path. Nothing is reserved before bind. Rate-limited per client (300 per 10 minutes across the checkout routes).',
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
