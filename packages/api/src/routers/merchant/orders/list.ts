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
      description: `Newest first. \`search\` takes an order number (\`1042\` or \`#1042\`) or part of the customer email. ${ORDER_READ}`,
    },
  })
  .input(orderListQuerySchema)
  .output(pageSchema(orderSchema))
  .query(({ ctx, input }) => listOrders(ctx.db, ctx.tenant.organizationId, input));
