import { moderateReview, reviewSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { idInput, moderator } from './review-moderation.ts';

export const publishProcedure = moderator
  .meta({
    purges: 'review',
    openapi: {
      method: 'POST',
      path: '/merchant/reviews/{id}/publish',
      tags: TAGS,
      summary: 'Publish a pending review',
      description: 'Idempotent. A rejected review cannot be published (`409 INVALID_STATE_TRANSITION`).',
    },
    errors: ['RESOURCE_NOT_FOUND', 'INVALID_STATE_TRANSITION'],
  })
  .input(idInput)
  .output(reviewSchema)
  .mutation(({ ctx, input }) => moderateReview(ctx.db, writeContext(ctx), input.id, 'publish'));
