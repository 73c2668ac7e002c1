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
      description: `Compatibility route: the same as \`GET /customer/account/orders/by-reference/{orderReference}/returns\` with the order's display number; new links should use the reference. A number that is not plain digits is the neutral \`404\` too.\n\n${LIST}`,
    },
  })
  .input(orderReturnsByNumberQuerySchema)
  .output(orderReturnsSchema)
  .query(async ({ ctx, input }) => {
    const { orderNumber, ...page } = input;
    return listOrderReturns(ctx.db, await returnScope(ctx), { orderNumber }, page);
  });
