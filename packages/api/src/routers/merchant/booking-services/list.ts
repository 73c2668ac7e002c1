import { listServices, serviceListQuerySchema, serviceSchema } from '@commerce/bookings';
import { pageSchema } from '@commerce/core';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/booking-services',
      tags: TAGS,
      summary: "The organization's booking services, in the merchant order",
      description: 'In the merchant order. Archived services are hidden unless `archived=true`.',
    },
  })
  .input(serviceListQuerySchema)
  .output(pageSchema(serviceSchema))
  .query(async ({ ctx, input }) =>
    listServices(
      ctx.db,
      ctx.tenant.organizationId,
      input,
      await storeCurrency(ctx, ctx.tenant.organizationId),
    ),
  );
