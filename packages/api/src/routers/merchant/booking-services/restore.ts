import { restoreService, serviceActionInputSchema, serviceSchema } from '@commerce/bookings';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

export const restoreProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'booking-service',
    openapi: {
      method: 'POST',
      path: '/merchant/booking-services/{id}/restore',
      tags: TAGS,
      summary: 'Restore an archived booking service',
      description:
        'Idempotent. Back to the status it had, or `DRAFT` when `ACTIVE` would fail the activation check now.',
    },
    successStatus: 201,
  })
  .input(serviceActionInputSchema)
  .output(serviceSchema)
  .mutation(async ({ ctx, input }) =>
    restoreService(ctx.db, writeContext(ctx), input.id, {
      currency: await storeCurrency(ctx, ctx.tenant.organizationId),
    }),
  );
