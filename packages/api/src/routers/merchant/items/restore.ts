import { itemSchema, restoreItem } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ITEMS } from './docs.ts';
import { itemActionInputSchema } from './item-inputs.ts';

export const restoreProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/items/{id}/restore',
      tags: ITEMS,
      summary: 'Restore an archived item',
      description:
        'No body. The item returns to the status stored at archiving (`ACTIVE` or `DRAFT`), or `DRAFT` when none is stored; `archivedAt` is cleared and `__archivedFromStatus` removed. Restoring an item that is not archived changes nothing (idempotent). Answers `201` with the item. Audited as `item.restored` when something changed.',
    },
    successStatus: 201,
  })
  .input(itemActionInputSchema)
  .output(itemSchema)
  .mutation(({ ctx, input }) => restoreItem(ctx.db, writeContext(ctx), input.id));
