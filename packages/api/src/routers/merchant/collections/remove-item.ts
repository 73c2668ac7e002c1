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
    openapi: {
      method: 'DELETE',
      path: '/merchant/collections/{id}/items/{itemId}',
      tags: TAGS,
      summary: 'Take an item out of a collection',
      description:
        'Idempotent: answers `200 { removed: 1 }` when the item was a member and `{ removed: 0 }` otherwise (an unknown item id included). The other members keep their order. An unknown collection is `404`. Audited as `collection.item_removed` with `{ itemId }` when something was removed.',
    },
  })
  .input(removeCollectionItemInputSchema)
  .output(collectionItemRemovalSchema)
  .mutation(({ ctx, input }) => removeCollectionItem(ctx.db, writeContext(ctx), input.id, input.itemId));
