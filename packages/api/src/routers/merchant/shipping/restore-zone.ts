import { restoreShippingZone, shippingZoneIdInputSchema, shippingZoneSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS, ZONE_READ_NOTE } from './docs.ts';
import { writer } from './shipping-access.ts';

export const restoreZoneProcedure = writer
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/zones/{id}/restore',
      tags: TAGS,
      summary: 'Restore an archived shipping zone',
      description: `Idempotent; the zone shows publicly again with its active rates. ${ZONE_READ_NOTE}`,
    },
    successStatus: 201,
  })
  .input(shippingZoneIdInputSchema)
  .output(shippingZoneSchema)
  .mutation(({ ctx, input }) => restoreShippingZone(ctx.db, writeContext(ctx), input.id));
