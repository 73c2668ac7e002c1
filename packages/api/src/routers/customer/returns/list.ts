import { listOrderReturns, orderReturnsByReferenceQuerySchema, orderReturnsSchema } from '@commerce/orders';
import { customerProcedure } from '../../../trpc.ts';
import { LIST, TAGS } from './docs.ts';
import { returnScope } from './return-scope.ts';

export const listProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/orders/by-reference/{orderReference}/returns',
      tags: TAGS,
      summary: "An order's return activity",
      description: LIST,
    },
  })
  .input(orderReturnsByReferenceQuerySchema)
  .output(orderReturnsSchema)
  .query(async ({ ctx, input }) => {
    const { orderReference, ...page } = input;
    return listOrderReturns(ctx.db, await returnScope(ctx), { orderReference }, page);
  });
