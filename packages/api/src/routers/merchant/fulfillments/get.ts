import { fulfillmentPathSchema, fulfillmentSchema, getFulfillment } from '@commerce/orders';
import { merchantProcedure } from '../../../trpc.ts';
import { ADDRESSING, BASE, READ, TAGS } from './docs.ts';

export const getProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: `${BASE}/fulfillments/{fulfillmentId}`,
      tags: TAGS,
      summary: 'A fulfillment',
      description: `Open to any member. ${ADDRESSING} ${READ}`,
    },
  })
  .input(fulfillmentPathSchema)
  .output(fulfillmentSchema)
  .query(({ ctx, input }) => getFulfillment(ctx.db, ctx.tenant.organizationId, input));
