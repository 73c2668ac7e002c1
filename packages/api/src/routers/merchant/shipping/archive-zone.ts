import { archiveShippingZone, shippingZoneIdInputSchema, shippingZoneSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS, ZONE_READ_NOTE } from './docs.ts';
import { writer } from './shipping-access.ts';

export const archiveZoneProcedure = writer
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/zones/{id}/archive',
      tags: TAGS,
      summary: 'Archive a shipping zone',
      description: `Idempotent; the zone and its rates leave the public list at once (the rates keep their own state). ${ZONE_READ_NOTE}`,
    },
    successStatus: 201,
  })
  .input(shippingZoneIdInputSchema)
  .output(shippingZoneSchema)
  .mutation(({ ctx, input }) => archiveShippingZone(ctx.db, writeContext(ctx), input.id));
