import { moderateReview, reviewSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { idInput, moderator } from './review-moderation.ts';

export const rejectProcedure = moderator
  .meta({
    purges: 'review',
    openapi: {
      method: 'POST',
      path: '/merchant/reviews/{id}/reject',
      tags: TAGS,
      summary: 'Reject a pending review, or take a published one down',
      description: 'Idempotent; takes a published review down too.',
    },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(idInput)
  .output(reviewSchema)
  .mutation(({ ctx, input }) => moderateReview(ctx.db, writeContext(ctx), input.id, 'reject'));
