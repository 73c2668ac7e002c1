import { collectionActionInputSchema, collectionSchema, restoreCollection } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { TAGS } from './docs.ts';

export const restoreProcedure = writer()
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/collections/{id}/restore',
      tags: TAGS,
      summary: 'Restore an archived collection',
      description:
        'Clears `archivedAt` and keeps `status` (an ACTIVE collection is public again at once). Idempotent: restoring a live collection answers it unchanged. Answers `201` with the collection. Audited as `collection.restored`.',
    },
    successStatus: 201,
  })
  .input(collectionActionInputSchema)
  .output(collectionSchema)
  .mutation(({ ctx, input }) => restoreCollection(ctx.db, writeContext(ctx), input.id));
