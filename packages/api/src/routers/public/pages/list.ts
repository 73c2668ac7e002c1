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
        "`PUBLISHED`, unarchived pages, without their `content` (read a page by slug for it). For the next page pass the last page's `id` as `cursor`.",
    },
    rateLimit: 'public-read',
    publicCache: { kind: 'page', read: 'list' },
  })
  .input(publicPageListQuerySchema)
  .output(z.array(publicCmsPageSummarySchema))
  .query(({ ctx, input }) => listPublicPages(ctx.db, ctx.tenant.organizationId, input));
