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
      description:
        'Body `{ name, countries, sortOrder? }`. `countries` are ISO 3166-1 alpha-2 codes (lower case accepted, stored upper case, repeats kept once; an unassigned code is `400`); the list may be empty while the zone is being configured. Answers the zone with `rates: []`. Audited as `shipping_zone.created`.',
    },
    successStatus: 201,
  })
  .input(createShippingZoneInputSchema)
  .output(shippingZoneSchema)
  .mutation(({ ctx, input }) => createShippingZone(ctx.db, writeContext(ctx), input));
