import { pageSchema } from '@commerce/core';
import { fulfillmentListQuerySchema, fulfillmentSchema, listFulfillments } from '@commerce/fulfillment';
import { merchantProcedure } from '../../../trpc.ts';
import { ADDRESSING, BASE, TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: `${BASE}/fulfillments`,
      tags: TAGS,
      summary: "A record's fulfillments, oldest first",
      description: `Cancelled ones included. ${ADDRESSING}`,
    },
  })
  .input(fulfillmentListQuerySchema)
  .output(pageSchema(fulfillmentSchema))
  .query(({ ctx, input }) => listFulfillments(ctx.db, ctx.tenant.organizationId, input));
