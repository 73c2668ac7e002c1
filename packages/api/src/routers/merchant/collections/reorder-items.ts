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
    purges: 'collection',
    openapi: {
      method: 'PATCH',
      path: '/merchant/collections/{id}/items/order',
      tags: TAGS,
      summary: "Set the order of a collection's items",
      description:
        "Takes exactly the current members, each once, else changes nothing (`400`). In one transaction under the collection's lock.",
    },
  })
  .input(reorderCollectionItemsInputSchema)
  .output(collectionItemOrderSchema)
  .mutation(({ ctx, input }) => reorderCollectionItems(ctx.db, writeContext(ctx), input.id, input.itemIds));
