import {
  collectionItemRemovalSchema,
  removeCollectionItem,
  removeCollectionItemInputSchema,
} from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { TAGS } from './docs.ts';

export const removeItemProcedure = writer()
  .meta({
    purges: 'collection',
    openapi: {
      method: 'DELETE',
      path: '/merchant/collections/{id}/items/{itemId}',
      tags: TAGS,
      summary: 'Take an item out of a collection',
      description: 'Idempotent; the other members keep their order.',
    },
  })
  .input(removeCollectionItemInputSchema)
  .output(collectionItemRemovalSchema)
  .mutation(({ ctx, input }) => removeCollectionItem(ctx.db, writeContext(ctx), input.id, input.itemId));
