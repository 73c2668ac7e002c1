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
      description:
        'Body `{ name, priceInCents, minimumSubtotalInCents?, estimatedDelivery?, sortOrder? }`. A rate cannot be added to an archived zone: `409 INVALID_STATE_TRANSITION` (restore the zone first). Audited as `shipping_rate.created`.',
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
