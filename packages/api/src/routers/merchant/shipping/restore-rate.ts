import { restoreShippingRate, shippingRateIdInputSchema, shippingRateSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { writer } from './shipping-access.ts';

export const restoreRateProcedure = writer
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/rates/{rateId}/restore',
      tags: TAGS,
      summary: 'Restore an archived shipping rate',
      description: 'Idempotent. A rate of an archived zone shows publicly once its zone is restored.',
    },
    successStatus: 201,
  })
  .input(shippingRateIdInputSchema)
  .output(shippingRateSchema)
  .mutation(({ ctx, input }) => restoreShippingRate(ctx.db, writeContext(ctx), input.rateId));
