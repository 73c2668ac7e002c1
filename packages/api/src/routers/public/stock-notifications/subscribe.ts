import { stockSubscriptionSchema, subscribeToStock, subscribeToStockBodySchema } from '@commerce/catalog';
import { z } from 'zod';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const subscribeProcedure = tenantProcedure
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
  });
