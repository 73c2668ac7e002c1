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
    purges: 'collection',
    openapi: {
      method: 'POST',
      path: '/merchant/collections/{id}/items',
      tags: TAGS,
      summary: 'Append items to a collection',
      description:
        'Appends in the order sent; items already in the collection keep their place. Any item of the organization may be added (the storefront shows only active ones); an id of no item of the organization adds nothing (`400`). Concurrent appends run one after another.',
    },
  })
  .input(addCollectionItemsInputSchema)
  .output(collectionItemsAddedSchema)
  .mutation(({ ctx, input }) => addCollectionItems(ctx.db, writeContext(ctx), input.id, input.itemIds));
