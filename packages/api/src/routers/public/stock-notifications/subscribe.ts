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
        'Without `variantId` the signup waits for any variant of the item. One signup per item, variant and email (any case): a repeat answers the existing one. A confirmation email is sent unless the signup was unsubscribed.',
        'When the variant comes back in stock each active signup gets one email, each with its own unsubscribe link. Rate-limited per client.',
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
