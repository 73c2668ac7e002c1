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
        'The review is pending until the merchant publishes it, and absent from public reads until then. `authorEmail` is used only to refuse a second review of the same item (409 DUPLICATE_REVIEW) and to match purchases; it is never returned publicly. `verifiedPurchase` is decided at submission: true when that email has a checkout order of the item that was paid and is not cancelled, or a legacy order of the item the merchant moved to `COMPLETED`. An unknown, draft or archived item is 404.',
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
