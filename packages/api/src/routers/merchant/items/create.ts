import { createItem, createItemInputSchema, itemSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ITEMS } from './docs.ts';

export const createProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'item',
    openapi: {
      method: 'POST',
      path: '/merchant/items',
      tags: ITEMS,
      summary: 'Create an item',
      description:
        'A new item comes first (`sortOrder` 0, newest first) until the items are reordered. A slug is unique in the organization, archived items included (`409 SLUG_TAKEN`).',
    },
    successStatus: 201,
    errors: ['SLUG_TAKEN'],
  })
  .input(createItemInputSchema)
  .output(itemSchema)
  .mutation(({ ctx, input }) => createItem(ctx.db, writeContext(ctx), input));
