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
      description: [
        'A flat array of the active zones, ordered by `sortOrder`, then `name`, then `id`; each carries its active rates (by `sortOrder`, then `name`). An archived zone or rate disappears at once; the rates of an archived zone go with it.',
        'A rate with `minimumSubtotalInCents` applies only to carts whose subtotal reaches it. No tax fields.',
        'Query `limit` (1 to 200, default 50) and `cursor`, the `id` of the last zone of the previous page; a page shorter than `limit` is the last. A cursor that names no zone of the organization is `400 VALIDATION_FAILED`.',
      ].join('\n\n'),
    },
    rateLimit: 'public-read',
  })
  .input(publicShippingZoneListQuerySchema)
  .output(z.array(publicShippingZoneSchema))
  .query(({ ctx, input }) => listPublicShippingZones(ctx.db, ctx.tenant.organizationId, input));
