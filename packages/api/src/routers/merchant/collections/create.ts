import { collectionSchema, createCollection, createCollectionInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { SLUG_RULE, TAGS } from './docs.ts';

export const createProcedure = writer()
  .meta({
    purges: 'collection',
    openapi: {
      method: 'POST',
      path: '/merchant/collections',
      tags: TAGS,
      summary: 'Create a collection',
      description: `${SLUG_RULE}`,
    },
    successStatus: 201,
    errors: ['SLUG_TAKEN'],
  })
  .input(createCollectionInputSchema)
  .output(collectionSchema)
  .mutation(({ ctx, input }) => createCollection(ctx.db, writeContext(ctx), input));
