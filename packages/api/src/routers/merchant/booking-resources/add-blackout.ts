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
      description:
        "Claims the resource's whole capacity over the interval, whatever the capacity becomes later. Live holds, bookings or blackouts in the way are `409 CAPACITY_UNAVAILABLE` naming them.",
    },
    successStatus: 201,
    errors: ['CAPACITY_UNAVAILABLE', 'STALE_STATE'],
  })
  .input(blackoutInputSchema)
  .output(blackoutSchema)
  .mutation(({ ctx, input }) => addBlackout(ctx.db, writeContext(ctx), input));
