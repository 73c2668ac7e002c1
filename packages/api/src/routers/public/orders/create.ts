import { getSettings } from '@commerce/admin';
import { createdLegacyOrderSchema, createLegacyOrder, createLegacyOrderInputSchema } from '@commerce/orders';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const createProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/orders',
      tags: TAGS,
      summary: 'Place an order (legacy)',
      description: [
        'Legacy: new storefronts use checkout sessions. The line names and prices are kept as sent; each `itemId` must be an `ACTIVE`, unarchived item of the store (a `RENTAL` item is `400`: rentals are booked through a booking service). No tax, shipping or discount; stock is neither reserved nor consumed.',
        'Answers `201` with the order and its `orderStatusToken` (`o1_…`, for `POST /public/order-status`), shown only here and in the confirmation email. Rate-limited per client (60 per 10 minutes).',
      ].join('\n\n'),
    },
    successStatus: 201,
    rateLimit: 'public-order',
  })
  .input(createLegacyOrderInputSchema)
  .output(createdLegacyOrderSchema)
  .mutation(async ({ ctx, input }) => {
    const at = ctx.clock.now();
    const settings = await getSettings(ctx.db, ctx.tenant.organizationId, at);
    return createLegacyOrder(
      ctx.db,
      {
        organizationId: ctx.tenant.organizationId,
        currency: settings.checkoutSettings.currency,
        email: customerEmailConfig(ctx),
        at,
      },
      input,
    );
  });
