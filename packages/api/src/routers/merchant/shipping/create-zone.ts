import { createShippingZone, createShippingZoneInputSchema, shippingZoneSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { writer } from './shipping-access.ts';

export const createZoneProcedure = writer
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/zones',
      tags: TAGS,
      summary: 'Create a shipping zone',
      description: 'The countries may be empty while the zone is being configured.',
    },
    successStatus: 201,
  })
  .input(createShippingZoneInputSchema)
  .output(shippingZoneSchema)
  .mutation(({ ctx, input }) => createShippingZone(ctx.db, writeContext(ctx), input));
