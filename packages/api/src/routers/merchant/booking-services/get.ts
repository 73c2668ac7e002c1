import { getService, serviceIdInputSchema, serviceSchema } from '@commerce/bookings';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const getProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/booking-services/{id}',
      tags: TAGS,
      summary: 'A booking service by id',
      description: 'Archived services included.',
    },
  })
  .input(serviceIdInputSchema)
  .output(serviceSchema)
  .query(async ({ ctx, input }) =>
    getService(
      ctx.db,
      ctx.tenant.organizationId,
      input.id,
      await storeCurrency(ctx, ctx.tenant.organizationId),
    ),
  );
