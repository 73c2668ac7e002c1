import {
  getPublicPage,
  listPublicPages,
  publicCmsPageSchema,
  publicCmsPageSummarySchema,
  publicPageListQuerySchema,
  publicPageSlugInputSchema,
} from '@commerce/catalog';
import { z } from 'zod';
import { router, tenantProcedure } from '../../trpc.ts';

const TAGS = ['Public: content'];

export const publicPagesRouter = router({
  list: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/pages',
        tags: TAGS,
        summary: "The storefront's published CMS pages, newest first",
        description:
          'PUBLISHED, non-archived pages, each without its `content` (read the page by slug for it), ordered by `createdAt` descending, then `id` descending. A flat array; for the next page pass the `id` of the last page as `cursor` (limit 1 to 200, default 50).',
      },
      rateLimit: 'public-read',
    })
    .input(publicPageListQuerySchema)
    .output(z.array(publicCmsPageSummarySchema))
    .query(({ ctx, input }) => listPublicPages(ctx.db, ctx.tenant.organizationId, input)),

  get: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/pages/{slug}',
        tags: TAGS,
        summary: 'One published CMS page by slug, with its sanitised HTML',
        description:
          'A PUBLISHED, non-archived page; an unknown, DRAFT or archived slug is `404 RESOURCE_NOT_FOUND`, alike.',
      },
      rateLimit: 'public-read',
    })
    .input(publicPageSlugInputSchema)
    .output(publicCmsPageSchema)
    .query(({ ctx, input }) => getPublicPage(ctx.db, ctx.tenant.organizationId, input.slug)),
});
