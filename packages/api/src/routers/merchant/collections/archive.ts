import { archiveCollection, collectionActionInputSchema, collectionSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { TAGS } from './docs.ts';

export const archiveProcedure = writer()
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/collections/{id}/archive',
      tags: TAGS,
      summary: 'Archive a collection',
      description:
        'Soft delete: sets `archivedAt`, keeps `status`, members and their order. The collection leaves the storefront and the default merchant list at once. Idempotent: archiving an archived collection answers it unchanged. Answers `201` with the collection. Audited as `collection.archived`.',
    },
    successStatus: 201,
  })
  .input(collectionActionInputSchema)
  .output(collectionSchema)
  .mutation(({ ctx, input }) => archiveCollection(ctx.db, writeContext(ctx), input.id));
