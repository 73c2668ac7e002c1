import { getOrderByStatusToken } from '@commerce/fulfillment';
import { customerOrderSchema, orderStatusTokenInputSchema } from '@commerce/orders';
import { publicProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const statusProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/order-status',
      tags: TAGS,
      summary: 'Read an order with the token of its order-status link',
      description:
        "Takes the `o1_` token of an order-status link or of the create response, in the body to keep it out of access logs. The token names the store and the order: no `x-organization-slug`, and the public order reads switch does not apply. Read-only, with the order's shipped and delivered fulfillments. A malformed, unknown or foreign token is one neutral `404`; tokens do not expire. Rate-limited per client.",
    },
    rateLimit: 'public-read',
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(orderStatusTokenInputSchema)
  .output(customerOrderSchema)
  .mutation(({ ctx, input }) => getOrderByStatusToken(ctx.db, input.token));
