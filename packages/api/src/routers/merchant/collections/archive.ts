import { archiveCollection, collectionActionInputSchema, collectionSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { TAGS } from './docs.ts';

export const archiveProcedure = writer()
  .meta({
    purges: 'collection',
    openapi: {
      method: 'POST',
      path: '/merchant/collections/{id}/archive',
      tags: TAGS,
      summary: 'Archive a collection',
      description:
        'Idempotent. Keeps `status`, members and their order; the collection leaves the storefront at once.',
    },
    successStatus: 201,
  })
  .input(collectionActionInputSchema)
  .output(collectionSchema)
  .mutation(({ ctx, input }) => archiveCollection(ctx.db, writeContext(ctx), input.id));
