import { submitReview, submitReviewInputSchema } from '@commerce/catalog';
import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';
import { itemIdSchema } from './review.types.ts';

export const submitProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/items/{itemId}/reviews',
      tags: TAGS,
      summary: 'Submit a review of an item',
      description:
        'The review stays out of public reads until the merchant publishes it. `authorEmail` is never shown: it refuses a second review of the item (`409 DUPLICATE_REVIEW`) and decides `verifiedPurchase` (a paid, uncancelled order of the item in that email). An unknown, draft or archived item is `404`.',
    },
    successStatus: 201,
    rateLimit: 'public-review',
    errors: ['RESOURCE_NOT_FOUND', 'DUPLICATE_REVIEW'],
  })
  .input(submitReviewInputSchema.extend({ itemId: itemIdSchema }))
  .output(z.object({ ok: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    const { itemId, ...review } = input;
    await submitReview(
      ctx.db,
      { organizationId: ctx.tenant.organizationId, itemId, at: ctx.clock.now() },
      review,
    );
    return { ok: true as const };
  });
