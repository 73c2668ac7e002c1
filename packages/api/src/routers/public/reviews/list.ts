import { listPublicReviews, publicReviewPageSchema, publicReviewQuerySchema } from '@commerce/catalog';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';
import { itemIdSchema } from './review.types.ts';

export const listProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/items/{itemId}/reviews',
      tags: TAGS,
      summary: 'Published reviews of an item, newest first, with the rating aggregates',
      description:
        'The rating aggregates cover every published review of the item, not only this page. An unknown, draft or archived item is `404`.',
    },
    rateLimit: 'public-read',
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(publicReviewQuerySchema.extend({ itemId: itemIdSchema }))
  .output(publicReviewPageSchema)
  .query(({ ctx, input }) => {
    const { itemId, ...query } = input;
    return listPublicReviews(ctx.db, ctx.tenant.organizationId, itemId, query);
  });
