import { collectionSchema, updateCollection, updateCollectionInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { SLUG_RULE, TAGS } from './docs.ts';

export const updateProcedure = writer()
  .meta({
    purges: 'collection',
    openapi: {
      method: 'PATCH',
      path: '/merchant/collections/{id}',
      tags: TAGS,
      summary: 'Change a collection',
      description: `Fields not sent stay; archived collections may be edited. A patch that changes nothing records nothing. ${SLUG_RULE}`,
    },
    errors: ['SLUG_TAKEN'],
  })
  .input(updateCollectionInputSchema)
  .output(collectionSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateCollection(ctx.db, writeContext(ctx), id, changes);
  });
