import { moderateReview, reviewSchema } from '@commerce/catalog';
import { TAGS } from './docs.ts';
import { idInput, moderationScope, moderator } from './review-moderation.ts';

export const publishProcedure = moderator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/reviews/{id}/publish',
      tags: TAGS,
      summary: 'Publish a pending review',
      description:
        'PENDING → PUBLISHED; publishing a published review changes nothing. A rejected review cannot be published (409 INVALID_STATE_TRANSITION). Audited as `review.published`.',
    },
    errors: ['RESOURCE_NOT_FOUND', 'INVALID_STATE_TRANSITION'],
  })
  .input(idInput)
  .output(reviewSchema)
  .mutation(({ ctx, input }) => moderateReview(ctx.db, moderationScope(ctx), input.id, 'publish'));
