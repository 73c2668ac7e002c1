import { collectionIdInputSchema, collectionSchema, getCollection } from '@commerce/catalog';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const getProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/collections/{id}',
      tags: TAGS,
      summary: 'One collection',
      description: 'Archived collections included; `itemCount` counts every member.',
    },
  })
  .input(collectionIdInputSchema)
  .output(collectionSchema)
  .query(({ ctx, input }) => getCollection(ctx.db, ctx.tenant.organizationId, input.id));
