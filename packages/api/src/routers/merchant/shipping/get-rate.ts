import { getShippingRate, shippingRateReadInputSchema, shippingRateSchema } from '@commerce/catalog';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const getRateProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/shipping/rates/{rateId}',
      tags: TAGS,
      summary: 'One shipping rate, archived or not',
      description: 'Open to any member. An unknown id, or one of another organization, is `404`.',
    },
  })
  .input(shippingRateReadInputSchema)
  .output(shippingRateSchema)
  .query(({ ctx, input }) => getShippingRate(ctx.db, ctx.tenant.organizationId, input.rateId));
