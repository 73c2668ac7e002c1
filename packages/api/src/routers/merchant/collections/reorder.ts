import { collectionOrderSchema, reorderCollections, reorderCollectionsInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { TAGS } from './docs.ts';

export const reorderProcedure = writer()
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/collections/reorder',
      tags: TAGS,
      summary: 'Set the order of the collections',
      description:
        'Body `{ orderedIds }`: every non-archived collection of the organization exactly once (archived ones are not part of the order), else `400 VALIDATION_FAILED` with an issue per duplicate or foreign id and one for the missing ones, and nothing changes. Each collection gets `sortOrder` equal to its index, in one transaction. Answers `{ orderedIds }`. Audited as `collection.reordered` when a `sortOrder` changed.',
    },
  })
  .input(reorderCollectionsInputSchema)
  .output(collectionOrderSchema)
  .mutation(({ ctx, input }) => reorderCollections(ctx.db, writeContext(ctx), input.orderedIds));
