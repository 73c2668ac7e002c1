import { collectionOrderSchema, reorderCollections, reorderCollectionsInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { TAGS } from './docs.ts';

export const reorderProcedure = writer()
  .meta({
    purges: 'collection',
    openapi: {
      method: 'PATCH',
      path: '/merchant/collections/reorder',
      tags: TAGS,
      summary: 'Set the order of the collections',
      description:
        'Takes every non-archived collection exactly once, else changes nothing (`400`); each `sortOrder` becomes its index.',
    },
  })
  .input(reorderCollectionsInputSchema)
  .output(collectionOrderSchema)
  .mutation(({ ctx, input }) => reorderCollections(ctx.db, writeContext(ctx), input.orderedIds));
