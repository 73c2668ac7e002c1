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
        "Releases the blackout's claim; idempotent (`204` again). A blackout that never existed on this resource is `404`.",
    },
    successStatus: 204,
    errors: ['STALE_STATE'],
  })
  .input(blackoutPathInputSchema)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await removeBlackout(ctx.db, writeContext(ctx), input.id, input.blackoutId);
  });
