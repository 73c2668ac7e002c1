import { getOrderByNumber, orderNumberInputSchema, orderSchema } from '@commerce/orders';
import { merchantProcedure } from '../../../trpc.ts';
import { ORDER_READ, TAGS } from './docs.ts';

export const getByNumberProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/orders/number/{num}',
      tags: TAGS,
      summary: 'An order by its number',
      description: `Open to any member. An unknown number is \`404\`. ${ORDER_READ}`,
    },
  })
  .input(orderNumberInputSchema)
  .output(orderSchema)
  .query(({ ctx, input }) => getOrderByNumber(ctx.db, ctx.tenant.organizationId, input.num));
