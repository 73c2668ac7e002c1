import { getReturn, returnIdInputSchema, returnSchema } from '@commerce/orders';
import { READ_ACCESS, TAGS } from './docs.ts';
import { reader } from './return-access.ts';

export const getProcedure = reader
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/returns/{returnId}',
      tags: TAGS,
      summary: 'A return by id',
      description: `${READ_ACCESS}`,
    },
  })
  .input(returnIdInputSchema)
  .output(returnSchema)
  .query(({ ctx, input }) => getReturn(ctx.db, ctx.tenant.organizationId, input.returnId));
