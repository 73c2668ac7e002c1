import {
  getPublicService,
  listPublicServices,
  publicServiceListQuerySchema,
  publicServiceSchema,
  serviceSlugInputSchema,
} from '@commerce/bookings';
import { pageSchema } from '@commerce/core';
import { router, tenantProcedure } from '../../trpc.ts';
import { storeCurrency } from '../merchant/booking-services.ts';

const TAGS = ['Public: bookings'];

const PUBLIC_SERVICE =
  'Only `ACTIVE` services are public. A public service has no `sortOrder`, `metafields` or archive fields, no notes on its closures, its delivery origin as `{ city, country }` only, and `AUTO` requirements without their pool; the requirements a customer may or must choose for list their ACTIVE resources as `resources[] { id, name }`. `pricing` is a preview (`authoritative: false`) in the store currency.';

export const publicBookingServicesRouter = router({
  list: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/booking-services',
        tags: TAGS,
        summary: "The storefront's booking services",
        description: `${PUBLIC_SERVICE}\n\n\`{ data, nextCursor }\` in the merchant order (\`sortOrder\` ascending, then newest first); keyset-paginated (\`limit\` 1 to 200, default 50; pass \`nextCursor\` as \`cursor\`; a cursor naming no public service is \`400\`).`,
      },
      rateLimit: 'public-read',
    })
    .input(publicServiceListQuerySchema)
    .output(pageSchema(publicServiceSchema))
    .query(async ({ ctx, input }) =>
      listPublicServices(
        ctx.db,
        ctx.tenant.organizationId,
        input,
        await storeCurrency(ctx, ctx.tenant.organizationId),
      ),
    ),

  get: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/booking-services/{slug}',
        tags: TAGS,
        summary: 'A storefront booking service by slug',
        description: `${PUBLIC_SERVICE}\n\nA missing, draft, archived or other organization's service is \`404 RESOURCE_NOT_FOUND\`, the same answer for each.`,
      },
      rateLimit: 'public-read',
    })
    .input(serviceSlugInputSchema)
    .output(publicServiceSchema)
    .query(async ({ ctx, input }) =>
      getPublicService(
        ctx.db,
        ctx.tenant.organizationId,
        input.slug,
        await storeCurrency(ctx, ctx.tenant.organizationId),
      ),
    ),
});
