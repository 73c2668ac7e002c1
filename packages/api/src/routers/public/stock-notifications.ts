import {
  stockSubscriptionSchema,
  subscribeToStock,
  subscribeToStockBodySchema,
  unsubscribeBodySchema,
  unsubscribeByToken,
  unsubscribeResultSchema,
} from '@commerce/catalog';
import { z } from 'zod';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { publicProcedure, router, tenantProcedure } from '../../trpc.ts';

const TAGS = ['Public: stock notifications'];

export const publicStockNotificationsRouter = router({
  subscribe: tenantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/items/{itemId}/stock-notifications',
        tags: TAGS,
        summary: 'Ask to be emailed when an item is back in stock',
        description: [
          'Body `{ email, variantId? }`; unknown keys are `400`. Without `variantId` the signup waits for any variant of the item. An unknown, draft or archived item is `404`; a `variantId` that is not a non-archived variant of the item is `400` (path `variantId`).',
          'Idempotent per (item, variant, email), the email compared without case: a repeat answers `201` with the existing signup, never a second one, also under concurrent requests. A new or still-active signup, or one already notified (which becomes `ACTIVE` again), sends a `STOCK_NOTIFICATION_CONFIRMATION` email through the outbox; a signup that was unsubscribed stays `UNSUBSCRIBED` and sends nothing.',
          'When the variant goes from 0 to a positive stock, each `ACTIVE` signup gets one `BACK_IN_STOCK` email and becomes `NOTIFIED`. Every email carries its own unsubscribe link, `{HOSTED_CHECKOUT_URL}/email/unsubscribe?token=u1_…`, for `POST /public/email-unsubscribe`. Rate-limited per client.',
        ].join('\n\n'),
      },
      successStatus: 201,
      rateLimit: 'public-stock-notification',
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(subscribeToStockBodySchema.extend({ itemId: z.string().min(1).max(64).describe('The item id') }))
    .output(stockSubscriptionSchema)
    .mutation(({ ctx, input }) => {
      const { itemId, ...body } = input;
      return subscribeToStock(
        ctx.db,
        {
          organizationId: ctx.tenant.organizationId,
          at: ctx.clock.now(),
          email: customerEmailConfig(ctx),
        },
        itemId,
        body,
      );
    }),

  unsubscribe: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/email-unsubscribe',
        tags: TAGS,
        summary: 'Unsubscribe through the link of an email',
        description: [
          "The storefront's `/email/unsubscribe?token=…` page posts the link's `token` here (in the body, so it stays out of access logs). The token alone names the store and the subscription: no `x-organization-slug` is needed.",
          'The subscription becomes `UNSUBSCRIBED` and a later signup for the same item, variant and email stays so. Every link of every email sent for the subscription works, as often as it is used. A malformed, unknown or foreign token is one neutral `404`.',
        ].join('\n\n'),
      },
      rateLimit: 'public-read',
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(unsubscribeBodySchema)
    .output(unsubscribeResultSchema)
    .mutation(({ ctx, input }) => unsubscribeByToken(ctx.db, input.token, ctx.clock.now())),
});
