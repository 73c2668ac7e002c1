import { listOrderReturns, orderReturnsByNumberQuerySchema, orderReturnsSchema } from '@commerce/orders';
import { customerProcedure } from '../../../trpc.ts';
import { LIST, TAGS } from './docs.ts';
import { returnScope } from './return-scope.ts';

export const listByNumberProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/orders/{orderNumber}/returns',
      tags: TAGS,
      summary: "An order's return activity, by order number (compatibility)",
      description: `Compatibility: the by-reference route with the order's display number. ${LIST}`,
    },
  })
  .input(orderReturnsByNumberQuerySchema)
  .output(orderReturnsSchema)
  .query(async ({ ctx, input }) => {
    const { orderNumber, ...page } = input;
    return listOrderReturns(ctx.db, await returnScope(ctx), { orderNumber }, page);
  });
