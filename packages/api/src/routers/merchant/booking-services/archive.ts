import { archiveService, serviceActionInputSchema, serviceSchema } from '@commerce/bookings';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

export const archiveProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'booking-service',
    openapi: {
      method: 'POST',
      path: '/merchant/booking-services/{id}/archive',
      tags: TAGS,
      summary: 'Archive a booking service',
      description: 'Idempotent, from any state; restore brings back the status it had.',
    },
    successStatus: 201,
  })
  .input(serviceActionInputSchema)
  .output(serviceSchema)
  .mutation(async ({ ctx, input }) =>
    archiveService(ctx.db, writeContext(ctx), input.id, {
      currency: await storeCurrency(ctx, ctx.tenant.organizationId),
    }),
  );
