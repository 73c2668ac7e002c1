import { getShippingZone, shippingZoneReadInputSchema, shippingZoneSchema } from '@commerce/catalog';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS, ZONE_READ_NOTE } from './docs.ts';

export const getZoneProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/shipping/zones/{id}',
      tags: TAGS,
      summary: 'One shipping zone, archived or not',
      description: `${ZONE_READ_NOTE}`,
    },
  })
  .input(shippingZoneReadInputSchema)
  .output(shippingZoneSchema)
  .query(({ ctx, input }) => getShippingZone(ctx.db, ctx.tenant.organizationId, input.id));
