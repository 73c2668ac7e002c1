import { archiveService, serviceActionInputSchema, serviceSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { bookingWriteContext } from '../booking-resources/resource-write-context.ts';
import { TAGS } from './docs.ts';
import { storeCurrency } from './store-currency.ts';

export const archiveProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/booking-services/{id}/archive',
      tags: TAGS,
      summary: 'Archive a booking service',
      description:
        'No body. From any state: `ARCHIVED`, `archivedAt` set, the prior status kept in `metafields.__archivedFromStatus`. Idempotent. Answers `201` with the service. Audited as `booking_service.archived` when something changed.',
    },
    successStatus: 201,
  })
  .input(serviceActionInputSchema)
  .output(serviceSchema)
  .mutation(async ({ ctx, input }) =>
    archiveService(ctx.db, bookingWriteContext(ctx), input.id, {
      currency: await storeCurrency(ctx, ctx.tenant.organizationId),
    }),
  );
