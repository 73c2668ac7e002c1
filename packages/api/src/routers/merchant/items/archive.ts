import { archiveItem, itemSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ITEMS } from './docs.ts';
import { itemActionInputSchema } from './item-inputs.ts';

export const archiveProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'item',
    openapi: {
      method: 'POST',
      path: '/merchant/items/{id}/archive',
      tags: ITEMS,
      summary: 'Archive (soft-delete) an item',
      description: 'Idempotent, from any state; restore brings back the status it had.',
    },
    successStatus: 201,
  })
  .input(itemActionInputSchema)
  .output(itemSchema)
  .mutation(({ ctx, input }) => archiveItem(ctx.db, writeContext(ctx), input.id));
