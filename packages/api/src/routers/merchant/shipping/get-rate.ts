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
    },
  })
  .input(shippingRateReadInputSchema)
  .output(shippingRateSchema)
  .query(({ ctx, input }) => getShippingRate(ctx.db, ctx.tenant.organizationId, input.rateId));
