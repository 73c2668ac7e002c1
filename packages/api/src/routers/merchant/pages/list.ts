import { cmsPageSummarySchema, listPages, pageListQuerySchema } from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/pages',
      tags: TAGS,
      summary: "The organization's CMS pages, newest first",
      description:
        'Each page without its `content` (read one page for it). Archived pages are hidden unless `archived=true`.',
    },
  })
  .input(pageListQuerySchema)
  .output(pageSchema(cmsPageSummarySchema))
  .query(({ ctx, input }) => listPages(ctx.db, ctx.tenant.organizationId, input));
