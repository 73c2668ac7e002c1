import { itemSchema, updateItem, updateItemInputSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ITEM_BODY, ITEMS } from './docs.ts';

export const updateProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/items/{id}',
      tags: ITEMS,
      summary: 'Change an item',
      description: [
        `Any subset of the create fields. ${ITEM_BODY}`,
        "`metafields` is merged key by key under the item's row lock, as Stripe and Shopify treat metadata: a key sent with a value sets it, a key sent as `null` deletes it, a key not sent is kept (concurrent patches of different keys all survive). The merged set must stay within 100 keys and 16,384 bytes of JSON, else `400`. The reserved `__` keys the service keeps (`__archivedFromStatus`) are preserved and cannot be sent. An empty body changes nothing.",
        'An archived item can be edited, but its `status` changes only through restore: sending `status` for an archived item is `409 INVALID_STATE_TRANSITION`. A slug of another item is `409 SLUG_TAKEN`; an unknown id, or one of another organization, `404`.',
        'A change is audited as `item.updated` with `{ fields }`, the names of the fields whose value changed; a patch that changes nothing writes nothing and records nothing.',
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
