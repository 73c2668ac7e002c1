import { addBlackout, blackoutInputSchema, blackoutSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

export const addBlackoutProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/booking-resources/{id}/blackouts',
      tags: TAGS,
      summary: 'Block a resource for an interval',
      description: [
        'Body `{ startsAt, endsAt, reason? }`: ISO 8601 instants with an offset on a whole minute, `endsAt` after `startsAt`; `reason` at most 500. Unknown keys are `400`.',
        'The blackout claims the whole capacity of the resource over `[startsAt, endsAt)` (whatever the capacity becomes later). Live holds, bookings or other blackouts in the way are `409 CAPACITY_UNAVAILABLE` with `details.conflicts[] { kind, id, startsAt, endsAt, quantity }`. Answers `201` with the blackout. Audited as `booking_resource.blackout_added`.',
      ].join('\n\n'),
    },
    successStatus: 201,
    errors: ['CAPACITY_UNAVAILABLE', 'STALE_STATE'],
  })
  .input(blackoutInputSchema)
  .output(blackoutSchema)
  .mutation(({ ctx, input }) => addBlackout(ctx.db, writeContext(ctx), input));
