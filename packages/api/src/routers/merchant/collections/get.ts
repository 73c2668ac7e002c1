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
      description:
        'Open to any member; archived collections included. `itemCount` counts every member, whatever its status. An unknown id, or one of another organization, is `404`.',
    },
  })
  .input(collectionIdInputSchema)
  .output(collectionSchema)
  .query(({ ctx, input }) => getCollection(ctx.db, ctx.tenant.organizationId, input.id));
