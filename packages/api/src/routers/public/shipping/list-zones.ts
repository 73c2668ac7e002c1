import {
  listPublicShippingZones,
  publicShippingZoneListQuerySchema,
  publicShippingZoneSchema,
} from '@commerce/catalog';
import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';

export const listZonesProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/shipping/zones',
      tags: ['Public: shipping'],
      summary: 'Shipping zones and their flat rates, for the cart',
      description:
        "The active zones with their active rates, in the merchant's order. A rate with `minimumSubtotalInCents` applies only to carts whose subtotal reaches it. For the next page pass the last zone's `id` as `cursor` (a shorter page is the last).",
    },
    rateLimit: 'public-read',
  })
  .input(publicShippingZoneListQuerySchema)
  .output(z.array(publicShippingZoneSchema))
  .query(({ ctx, input }) => listPublicShippingZones(ctx.db, ctx.tenant.organizationId, input));
