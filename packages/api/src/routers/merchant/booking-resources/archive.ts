import { resourceActionInputSchema, resourceSchema, setResourceArchived } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

export const archiveProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'booking-resource',
    openapi: {
      method: 'POST',
      path: '/merchant/booking-resources/{id}/archive',
      tags: TAGS,
      summary: 'Archive a resource',
      description: 'Idempotent. The resource leaves every pool for new claims; existing claims stay.',
    },
    successStatus: 201,
  })
  .input(resourceActionInputSchema)
  .output(resourceSchema)
  .mutation(({ ctx, input }) => setResourceArchived(ctx.db, writeContext(ctx), input.id, true));
