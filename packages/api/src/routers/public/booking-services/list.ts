import { listPublicServices, publicServiceListQuerySchema, publicServiceSchema } from '@commerce/bookings';
import { pageSchema } from '@commerce/core';
import { storeCurrency } from '../../../store-currency.ts';
import { tenantProcedure } from '../../../trpc.ts';
import { PUBLIC_SERVICE, TAGS } from './docs.ts';

export const listProcedure = tenantProcedure
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
  );
