import { collectionActionInputSchema, collectionSchema, restoreCollection } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { TAGS } from './docs.ts';

export const restoreProcedure = writer()
  .meta({
    purges: 'collection',
    openapi: {
      method: 'POST',
      path: '/merchant/collections/{id}/restore',
      tags: TAGS,
      summary: 'Restore an archived collection',
      description: 'Idempotent. Keeps `status`: an active collection is public again at once.',
    },
    successStatus: 201,
  })
  .input(collectionActionInputSchema)
  .output(collectionSchema)
  .mutation(({ ctx, input }) => restoreCollection(ctx.db, writeContext(ctx), input.id));
