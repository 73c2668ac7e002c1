import { listShippingZones, shippingZoneListQuerySchema, shippingZoneSchema } from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listZonesProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/shipping/zones',
      tags: TAGS,
      summary: 'Shipping zones with their rates',
      description: 'Each zone with its rates. Only active zones and rates unless `archived=true`.',
    },
  })
  .input(shippingZoneListQuerySchema)
  .output(pageSchema(shippingZoneSchema))
  .query(({ ctx, input }) => listShippingZones(ctx.db, ctx.tenant.organizationId, input));
