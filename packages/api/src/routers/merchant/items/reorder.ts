import { reorderItems, reorderItemsInputSchema, reorderItemsResultSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ITEMS } from './docs.ts';

export const reorderProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'item',
    openapi: {
      method: 'PATCH',
      path: '/merchant/items/reorder',
      tags: ITEMS,
      summary: 'Set the merchant order of every item',
      description:
        "Takes every non-archived item of the organization exactly once; each item's `sortOrder` becomes its index, in one transaction. Anything else changes nothing (`400` naming the ids). The items are locked meanwhile, so a concurrent archive lands first or waits.",
    },
  })
  .input(reorderItemsInputSchema)
  .output(reorderItemsResultSchema)
  .mutation(({ ctx, input }) => reorderItems(ctx.db, writeContext(ctx), input));
