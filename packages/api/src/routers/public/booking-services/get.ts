import { getPublicService, publicServiceSchema, serviceSlugInputSchema } from '@commerce/bookings';
import { storeCurrency } from '../../../store-currency.ts';
import { tenantProcedure } from '../../../trpc.ts';
import { PUBLIC_SERVICE, TAGS } from './docs.ts';

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/booking-services/{slug}',
      tags: TAGS,
      summary: 'A storefront booking service by slug',
      description: `${PUBLIC_SERVICE} A missing, draft, archived or other organization's service is the neutral \`404\`.`,
    },
    rateLimit: 'public-read',
    publicCache: { kind: 'booking-service', read: 'detail' },
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
  );
