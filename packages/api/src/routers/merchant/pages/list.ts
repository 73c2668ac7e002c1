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
        'Open to any member. Each page without its `content` (read one page for it). Ordered by `createdAt` descending, then `id` descending. Archived pages are hidden unless `archived=true`; `status` filters by `PUBLISHED` or `DRAFT`. Keyset-paginated: pass `nextCursor` as `cursor` (limit 1 to 200, default 50); a cursor that names no page of the organization is `400`.',
    },
  })
  .input(pageListQuerySchema)
  .output(pageSchema(cmsPageSummarySchema))
  .query(({ ctx, input }) => listPages(ctx.db, ctx.tenant.organizationId, input));
