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
      description: [
        READ_ACCESS,
        'Newest first (`createdAt`, then `id`, descending), keyset-paginated: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor that names no return is `400`. Filters, composable: `status`, `orderId`, `email` (the customer email, case-insensitive).',
        STATES,
      ].join('\n\n'),
    },
  })
  .input(returnListQuerySchema)
  .output(pageSchema(returnSchema))
  .query(({ ctx, input }) => listReturns(ctx.db, ctx.tenant.organizationId, input));
