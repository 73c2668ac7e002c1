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
      description: [
        'Open to any member. Zones ordered by `sortOrder`, then `name`, then `id`, each with its rates inlined (by `sortOrder`, then `name`).',
        'By default only active zones with their active rates; `archived=true` includes archived zones and archived rates, each with `archivedAt`.',
        'Keyset-paginated: pass `nextCursor` as `cursor` for the next page (limit 1 to 200, default 50); a cursor that names no zone of the organization is `400 VALIDATION_FAILED`.',
      ].join('\n\n'),
    },
  })
  .input(shippingZoneListQuerySchema)
  .output(pageSchema(shippingZoneSchema))
  .query(({ ctx, input }) => listShippingZones(ctx.db, ctx.tenant.organizationId, input));
