import { resourceSchema, updateResource, updateResourceInputSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

export const updateProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'booking-resource',
    openapi: {
      method: 'PATCH',
      path: '/merchant/booking-resources/{id}',
      tags: TAGS,
      summary: 'Change a resource',
      description:
        'A capacity below the peak of the live claims from now on is `409 CAPACITY_UNAVAILABLE` naming them; the check and the write hold the lock every claim takes. Only changed fields are written.',
    },
    errors: ['CAPACITY_UNAVAILABLE', 'STALE_STATE'],
  })
  .input(updateResourceInputSchema)
  .output(resourceSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateResource(ctx.db, writeContext(ctx), id, changes);
  });
