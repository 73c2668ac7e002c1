import { listReviews, moderateReview, reviewListQuerySchema, reviewSchema } from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import { z } from 'zod';
import { merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: reviews'];
const moderator = merchantProcedureWith('catalog:write');
const idInput = z.object({ id: z.string().min(1).max(64) });

export const merchantReviewsRouter = router({
  list: moderator
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/reviews',
        tags: TAGS,
        summary: 'Reviews by status, newest first (the pending moderation queue by default)',
        description:
          'Filter by `status` (default PENDING) and `itemId`. Includes `authorEmail`, which public reads never show.',
      },
    })
    .input(reviewListQuerySchema)
    .output(pageSchema(reviewSchema))
    .query(({ ctx, input }) => listReviews(ctx.db, ctx.tenant.organizationId, input)),

  publish: moderator
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
    .mutation(({ ctx, input }) => moderateReview(ctx.db, moderationScope(ctx), input.id, 'publish')),

  reject: moderator
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/reviews/{id}/reject',
        tags: TAGS,
        summary: 'Reject a pending review, or take a published one down',
        description:
          'PENDING or PUBLISHED → REJECTED; rejecting a rejected review changes nothing. Audited as `review.rejected`.',
      },
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(idInput)
    .output(reviewSchema)
    .mutation(({ ctx, input }) => moderateReview(ctx.db, moderationScope(ctx), input.id, 'reject')),
});

function moderationScope(ctx: {
  tenant: { organizationId: string };
  merchantUser: { id: string; email: string };
  clock: { now(): Date };
}) {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}
