import { getPublicPage, publicCmsPageSchema, publicPageSlugInputSchema } from '@commerce/catalog';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/pages/{slug}',
      tags: TAGS,
      summary: 'One published CMS page by slug, with its sanitised HTML',
      description: 'A `PUBLISHED`, unarchived page; any other slug is the neutral `404`.',
    },
    rateLimit: 'public-read',
    publicCache: { kind: 'page', read: 'detail' },
  })
  .input(publicPageSlugInputSchema)
  .output(publicCmsPageSchema)
  .query(({ ctx, input }) => getPublicPage(ctx.db, ctx.tenant.organizationId, input.slug));
