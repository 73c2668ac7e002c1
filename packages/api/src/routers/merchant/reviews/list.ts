import { listReviews, reviewListQuerySchema, reviewSchema } from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import { TAGS } from './docs.ts';
import { moderator } from './review-moderation.ts';

export const listProcedure = moderator
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/reviews',
      tags: TAGS,
      summary: 'Reviews by status, newest first (the pending moderation queue by default)',
      description: 'Includes `authorEmail`, which public reads never show.',
    },
  })
  .input(reviewListQuerySchema)
  .output(pageSchema(reviewSchema))
  .query(({ ctx, input }) => listReviews(ctx.db, ctx.tenant.organizationId, input));
