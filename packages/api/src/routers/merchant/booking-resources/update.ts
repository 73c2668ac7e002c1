import { resourceSchema, updateResource, updateResourceInputSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { RESOURCE_BODY, TAGS } from './docs.ts';

export const updateProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/booking-resources/{id}',
      tags: TAGS,
      summary: 'Change a resource',
      description: [
        `Any subset of the create fields. ${RESOURCE_BODY}`,
        'A `capacity` below the peak of the live claims from now on (holds, bookings, blackouts) is `409 CAPACITY_UNAVAILABLE` with `details.conflicts[] { kind, id, startsAt, endsAt, quantity }`, the claims in the way; the check and the write hold the lock every claim takes, so no claim slips in between.',
        'Only changed fields are written, audited as `booking_resource.updated` with `{ fields }`. An unknown id, or one of another organization, is `404`.',
      ].join('\n\n'),
    },
    errors: ['CAPACITY_UNAVAILABLE', 'STALE_STATE'],
  })
  .input(updateResourceInputSchema)
  .output(resourceSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateResource(ctx.db, writeContext(ctx), id, changes);
  });
