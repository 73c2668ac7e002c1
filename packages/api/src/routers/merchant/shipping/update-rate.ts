import { shippingRateSchema, updateShippingRate, updateShippingRateInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { writer } from './shipping-access.ts';

export const updateRateProcedure = writer
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/shipping/rates/{rateId}',
      tags: TAGS,
      summary: 'Change a shipping rate',
      description:
        'Archived rates, and rates of archived zones, can be edited. A change that changes nothing records nothing.',
    },
  })
  .input(updateShippingRateInputSchema)
  .output(shippingRateSchema)
  .mutation(({ ctx, input }) => {
    const { rateId, ...changes } = input;
    return updateShippingRate(ctx.db, writeContext(ctx), rateId, changes);
  });
