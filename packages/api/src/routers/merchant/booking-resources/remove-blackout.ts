import { blackoutPathInputSchema, removeBlackout } from '@commerce/bookings';
import { z } from 'zod';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

export const removeBlackoutProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/merchant/booking-resources/{id}/blackouts/{blackoutId}',
      tags: TAGS,
      summary: 'Remove a blackout',
      description:
        "Releases the blackout's claim. Answers `204`, also when the blackout was already removed (idempotent); a blackout that never existed on this resource, or another organization's, is `404`. Audited as `booking_resource.blackout_removed` when something changed.",
    },
    successStatus: 204,
    errors: ['STALE_STATE'],
  })
  .input(blackoutPathInputSchema)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await removeBlackout(ctx.db, writeContext(ctx), input.id, input.blackoutId);
  });
