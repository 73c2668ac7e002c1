import { itemSchema, restoreItem } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ITEMS } from './docs.ts';
import { itemActionInputSchema } from './item-inputs.ts';

export const restoreProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'item',
    openapi: {
      method: 'POST',
      path: '/merchant/items/{id}/restore',
      tags: ITEMS,
      summary: 'Restore an archived item',
      description: 'Idempotent. The item returns to the status it had when archived, else `DRAFT`.',
    },
    successStatus: 201,
  })
  .input(itemActionInputSchema)
  .output(itemSchema)
  .mutation(({ ctx, input }) => restoreItem(ctx.db, writeContext(ctx), input.id));
