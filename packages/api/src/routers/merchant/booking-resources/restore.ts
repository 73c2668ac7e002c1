import { resourceActionInputSchema, resourceSchema, setResourceArchived } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

export const restoreProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/booking-resources/{id}/restore',
      tags: TAGS,
      summary: 'Restore an archived resource',
      description:
        'No body. `status` becomes `ACTIVE` and `archivedAt` is cleared. Idempotent. Answers `201` with the resource. Audited as `booking_resource.restored` when something changed.',
    },
    successStatus: 201,
  })
  .input(resourceActionInputSchema)
  .output(resourceSchema)
  .mutation(({ ctx, input }) => setResourceArchived(ctx.db, writeContext(ctx), input.id, false));
