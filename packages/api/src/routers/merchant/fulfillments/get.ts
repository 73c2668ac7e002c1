import { fulfillmentPathSchema, fulfillmentSchema, getFulfillment } from '@commerce/fulfillment';
import { merchantProcedure } from '../../../trpc.ts';
import { ADDRESSING, BASE, TAGS } from './docs.ts';

export const getProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: `${BASE}/fulfillments/{fulfillmentId}`,
      tags: TAGS,
      summary: 'A fulfillment',
      description: `${ADDRESSING}`,
    },
  })
  .input(fulfillmentPathSchema)
  .output(fulfillmentSchema)
  .query(({ ctx, input }) => getFulfillment(ctx.db, ctx.tenant.organizationId, input));
