import { getOrder, orderIdInputSchema, orderSchema } from '@commerce/orders';
import { merchantProcedure } from '../../../trpc.ts';
import { ORDER_READ, TAGS } from './docs.ts';

export const getProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/orders/{id}',
      tags: TAGS,
      summary: 'An order by id',
      description: `Open to any member. An unknown id, or one of another organization, is \`404\`. ${ORDER_READ}`,
    },
  })
  .input(orderIdInputSchema)
  .output(orderSchema)
  .query(({ ctx, input }) => getOrder(ctx.db, ctx.tenant.organizationId, input.id));
