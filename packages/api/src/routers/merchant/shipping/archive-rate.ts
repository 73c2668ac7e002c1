import { archiveShippingRate, shippingRateIdInputSchema, shippingRateSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { writer } from './shipping-access.ts';

export const archiveRateProcedure = writer
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/rates/{rateId}/archive',
      tags: TAGS,
      summary: 'Archive a shipping rate',
      description: 'Idempotent; the rate leaves the public list at once.',
    },
    successStatus: 201,
  })
  .input(shippingRateIdInputSchema)
  .output(shippingRateSchema)
  .mutation(({ ctx, input }) => archiveShippingRate(ctx.db, writeContext(ctx), input.rateId));
