import {
  addCollectionItems,
  addCollectionItemsInputSchema,
  collectionItemsAddedSchema,
} from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { TAGS } from './docs.ts';

export const addItemsProcedure = writer()
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/collections/{id}/items',
      tags: TAGS,
      summary: 'Append items to a collection',
      description: [
        'Body `{ itemIds }`, 1 to 500 ids. Items already in the collection are skipped and keep their place; the others are appended at the end in the order sent (a repeated id counts once). Any item of the organization may be added, whatever its status; the storefront shows only ACTIVE ones.',
        'An id that names no item of the organization (unknown, or another organization’s) is `400 VALIDATION_FAILED` with an issue `itemIds.<index>` per such id, and nothing is added. An unknown collection is `404`.',
        'Concurrent appends to one collection run one after another: no two members share a position and no item is added twice. Answers `200 { addedItemIds, skippedItemIds, itemCount }`. Audited as `collection.items_added` with `{ itemIds }` (the appended ones) when something was appended.',
      ].join('\n\n'),
    },
  })
  .input(addCollectionItemsInputSchema)
  .output(collectionItemsAddedSchema)
  .mutation(({ ctx, input }) => addCollectionItems(ctx.db, writeContext(ctx), input.id, input.itemIds));
