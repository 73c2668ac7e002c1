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
      description: 'Archived collections are hidden unless `archived=true`.',
    },
  })
  .input(collectionListQuerySchema)
  .output(pageSchema(collectionSchema))
  .query(({ ctx, input }) => listCollections(ctx.db, ctx.tenant.organizationId, input));
