import { customerOrderSchema, getOrderByStatusToken, orderStatusTokenInputSchema } from '@commerce/orders';
import { publicProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const statusProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/order-status',
      tags: TAGS,
      summary: 'Read an order with the token of its order-status link',
      description: [
        'Body `{ token }`: the `o1_` token of the order-status link of an `ORDER_CONFIRMATION` email (`{HOSTED_CHECKOUT_URL}/order-status?token=o1_…`), or the `orderStatusToken` of the create response. It is sent in the body, not the path, to keep it out of access logs. The token alone names the store and the order: no `x-organization-slug` is needed, and the `apiSettings.publicOrderReadsEnabled` switch does not apply.',
        'Read-only: answers `200` with the order (never `notes`) and its `shipments[]` (`SHIPPED` and `DELIVERED` fulfillments: status, carrier, tracking, `shippedAt`, `deliveredAt`, the units shipped). A malformed, unknown or foreign token is one neutral `404`. Tokens do not expire. Rate-limited per client.',
      ].join('\n\n'),
    },
    rateLimit: 'public-read',
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(orderStatusTokenInputSchema)
  .output(customerOrderSchema)
  .mutation(({ ctx, input }) => getOrderByStatusToken(ctx.db, input.token));
