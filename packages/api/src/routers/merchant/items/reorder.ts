import { reorderItems, reorderItemsInputSchema, reorderItemsResultSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ITEMS } from './docs.ts';

export const reorderProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/items/reorder',
      tags: ITEMS,
      summary: 'Set the merchant order of every item',
      description: [
        "Body `{ orderedIds }`: every non-archived item of the organization, each exactly once, in the new order (at most 10,000 ids). Each item's `sortOrder` becomes its index, in one transaction.",
        'A duplicate, a missing item, or an id that is unknown, archived or of another organization is `400 VALIDATION_FAILED` (the issues name the ids) and changes nothing. The items are locked while the set is checked and written, so a concurrent archive either lands first (and the set must leave it out) or waits.',
        'Answers `{ data: [{ id, sortOrder }] }` in the new order. A reorder that moves something is audited as `item.reordered` with `{ itemCount, changedCount }`.',
      ].join('\n\n'),
    },
  })
  .input(reorderItemsInputSchema)
  .output(reorderItemsResultSchema)
  .mutation(({ ctx, input }) => reorderItems(ctx.db, writeContext(ctx), input));
