import { resourceActionInputSchema, resourceSchema, setResourceArchived } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

export const restoreProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'booking-resource',
    openapi: {
      method: 'POST',
      path: '/merchant/booking-resources/{id}/restore',
      tags: TAGS,
      summary: 'Restore an archived resource',
      description: 'Idempotent.',
    },
    successStatus: 201,
  })
  .input(resourceActionInputSchema)
  .output(resourceSchema)
  .mutation(({ ctx, input }) => setResourceArchived(ctx.db, writeContext(ctx), input.id, false));
