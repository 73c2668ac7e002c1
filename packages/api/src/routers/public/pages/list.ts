import { listPublicPages, publicCmsPageSummarySchema, publicPageListQuerySchema } from '@commerce/catalog';
import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listProcedure = tenantProcedure
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
  .query(({ ctx, input }) => listPublicPages(ctx.db, ctx.tenant.organizationId, input));
