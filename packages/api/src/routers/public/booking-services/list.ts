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
      description: `${PUBLIC_SERVICE} In the merchant's order.`,
    },
    rateLimit: 'public-read',
    publicCache: { kind: 'booking-service', read: 'list' },
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
