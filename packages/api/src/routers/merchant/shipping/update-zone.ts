import { shippingZoneSchema, updateShippingZone, updateShippingZoneInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS, ZONE_READ_NOTE } from './docs.ts';
import { writer } from './shipping-access.ts';

export const updateZoneProcedure = writer
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/shipping/zones/{id}',
      tags: TAGS,
      summary: 'Change a shipping zone',
      description: `\`countries\` replaces the whole list. Archived zones can be edited. A change that changes nothing records nothing. ${ZONE_READ_NOTE}`,
    },
  })
  .input(updateShippingZoneInputSchema)
  .output(shippingZoneSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateShippingZone(ctx.db, writeContext(ctx), id, changes);
  });
