import { restoreService, serviceActionInputSchema, serviceSchema } from '@commerce/bookings';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

export const restoreProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/booking-services/{id}/restore',
      tags: TAGS,
      summary: 'Restore an archived booking service',
      description:
        'No body. Back to the prior status, or `DRAFT` when none is stored or when `ACTIVE` would fail the activation check now. Idempotent. Answers `201` with the service. Audited as `booking_service.restored` when something changed.',
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
