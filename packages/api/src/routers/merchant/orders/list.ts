import { pageSchema } from '@commerce/core';
import { listOrders, orderListQuerySchema, orderSchema } from '@commerce/orders';
import { merchantProcedure } from '../../../trpc.ts';
import { ORDER_READ, TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/orders',
      tags: TAGS,
      summary: "The organization's orders, newest first",
      description: [
        'Open to any member. Newest first (`createdAt`, then `id`, descending), keyset-paginated: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor that names no order of the organization is `400`.',
        'Filters, composable: `status`, `fulfillmentStatus`, `paymentStatus` (exact), `email` (the customer email, case-insensitive), `search` (an order number such as `1042` or `#1042` finds that order; any other text is a case-insensitive substring of the customer email), `createdFrom` (inclusive) and `createdTo` (exclusive), ISO 8601 instants with an offset.',
        ORDER_READ,
      ].join('\n\n'),
    },
  })
  .input(orderListQuerySchema)
  .output(pageSchema(orderSchema))
  .query(({ ctx, input }) => listOrders(ctx.db, ctx.tenant.organizationId, input));
