import { createShippingRate, createShippingRateInputSchema, shippingRateSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { writer } from './shipping-access.ts';

export const createRateProcedure = writer
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/zones/{id}/rates',
      tags: TAGS,
      summary: 'Add a flat rate to a shipping zone',
      description: 'An archived zone takes no new rate (`409 INVALID_STATE_TRANSITION`: restore it first).',
    },
    successStatus: 201,
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(createShippingRateInputSchema)
  .output(shippingRateSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...rate } = input;
    return createShippingRate(ctx.db, writeContext(ctx), id, rate);
  });
