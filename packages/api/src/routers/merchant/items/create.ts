import { createItem, createItemInputSchema, itemSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ITEM_BODY, ITEMS } from './docs.ts';

export const createProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/items',
      tags: ITEMS,
      summary: 'Create an item',
      description: [
        ITEM_BODY,
        'A new item has `sortOrder` 0 unless one is sent, so it comes first (newest first among equal `sortOrder`) until the items are reordered.',
        'A slug another item of the organization has (archived ones included) is `409 SLUG_TAKEN`. Audited as `item.created`.',
      ].join('\n\n'),
    },
    successStatus: 201,
    errors: ['SLUG_TAKEN'],
  })
  .input(createItemInputSchema)
  .output(itemSchema)
  .mutation(({ ctx, input }) => createItem(ctx.db, writeContext(ctx), input));
