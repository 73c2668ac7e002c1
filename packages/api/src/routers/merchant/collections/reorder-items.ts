import {
  collectionItemOrderSchema,
  reorderCollectionItems,
  reorderCollectionItemsInputSchema,
} from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { TAGS } from './docs.ts';

export const reorderItemsProcedure = writer()
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/collections/{id}/items/order',
      tags: TAGS,
      summary: "Set the order of a collection's items",
      description:
        'Body `{ itemIds }`: exactly the current members, each once (at most 10,000), else `400 VALIDATION_FAILED` with an issue per duplicate or non-member id and one for the missing members, and nothing changes. Each member gets the position of its index, in one transaction under the collection’s lock. Answers `{ itemIds }`. Audited as `collection.items_reordered` when an item moved.',
    },
  })
  .input(reorderCollectionItemsInputSchema)
  .output(collectionItemOrderSchema)
  .mutation(({ ctx, input }) => reorderCollectionItems(ctx.db, writeContext(ctx), input.id, input.itemIds));
