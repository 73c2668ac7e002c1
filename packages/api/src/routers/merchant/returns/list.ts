import { pageSchema } from '@commerce/core';
import { listReturns, returnListQuerySchema, returnSchema } from '@commerce/orders';
import { READ_ACCESS, STATES, TAGS } from './docs.ts';
import { reader } from './return-access.ts';

export const listProcedure = reader
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/returns',
      tags: TAGS,
      summary: "The organization's returns, newest first",
      description: `${READ_ACCESS} Newest first. ${STATES}`,
    },
  })
  .input(returnListQuerySchema)
  .output(pageSchema(returnSchema))
  .query(({ ctx, input }) => listReturns(ctx.db, ctx.tenant.organizationId, input));
