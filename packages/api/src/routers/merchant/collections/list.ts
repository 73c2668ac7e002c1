import { collectionListQuerySchema, collectionSchema, listCollections } from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/collections',
      tags: TAGS,
      summary: "The organization's collections",
      description:
        'Open to any member. Ordered by `sortOrder` ascending, then `createdAt` descending, then `id` descending. Archived collections are hidden unless `archived=true`; `status` filters by `ACTIVE` or `DRAFT`. Keyset-paginated: pass `nextCursor` as `cursor` (limit 1 to 200, default 50); a cursor that names no collection of the organization is `400`.',
    },
  })
  .input(collectionListQuerySchema)
  .output(pageSchema(collectionSchema))
  .query(({ ctx, input }) => listCollections(ctx.db, ctx.tenant.organizationId, input));
