import { holdPathInputSchema, releaseHold } from '@commerce/bookings';
import { readIdempotencyKey } from '@commerce/db';
import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const releaseProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/public/booking-holds/{id}',
      tags: TAGS,
      summary: 'Release a hold',
      description:
        "Needs the key the hold was created with: another key, an unknown id or another store's hold is the neutral `404`. Frees an `ACTIVE` hold's claims; `204` also when it was already released or expired. A converted hold is `409 INVALID_STATE_TRANSITION`.",
    },
    successStatus: 204,
    rateLimit: 'public-checkout',
    idempotencyKey: 'required',
    errors: ['INVALID_STATE_TRANSITION', 'STALE_STATE'],
  })
  .input(holdPathInputSchema)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    const idempotencyKey = readIdempotencyKey(ctx.request.headers, { required: true });
    await releaseHold(
      ctx.db,
      { organizationId: ctx.tenant.organizationId, at: ctx.clock.now() },
      input.id,
      idempotencyKey,
    );
  });
