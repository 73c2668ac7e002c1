import { pageSchema } from '@commerce/core';
import { fulfillmentListQuerySchema, fulfillmentSchema, listFulfillments } from '@commerce/orders';
import { merchantProcedure } from '../../../trpc.ts';
import { ADDRESSING, BASE, READ, TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: `${BASE}/fulfillments`,
      tags: TAGS,
      summary: "A record's fulfillments, oldest first",
      description: [
        `Open to any member. ${ADDRESSING}`,
        'Every fulfillment of the record, cancelled ones included, oldest first (`createdAt`, then `id`), keyset-paginated: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor naming no fulfillment of the record is `400`.',
        READ,
      ].join('\n\n'),
    },
  })
  .input(fulfillmentListQuerySchema)
  .output(pageSchema(fulfillmentSchema))
  .query(({ ctx, input }) => listFulfillments(ctx.db, ctx.tenant.organizationId, input));
