import { itemSchema, updateItem, updateItemInputSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ITEMS } from './docs.ts';

export const updateProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'item',
    openapi: {
      method: 'PATCH',
      path: '/merchant/items/{id}',
      tags: ITEMS,
      summary: 'Change an item',
      description: [
        "Fields not sent stay. `metafields` is merged key by key under the item's lock (a `null` value deletes the key), so concurrent patches of different keys all survive; the service's own `__` keys are kept.",
        'An archived item can be edited, but its status changes only through restore (`409 INVALID_STATE_TRANSITION`). A patch that changes nothing records nothing.',
      ].join('\n\n'),
    },
    errors: ['SLUG_TAKEN', 'INVALID_STATE_TRANSITION'],
  })
  .input(updateItemInputSchema)
  .output(itemSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateItem(ctx.db, writeContext(ctx), id, changes);
  });
