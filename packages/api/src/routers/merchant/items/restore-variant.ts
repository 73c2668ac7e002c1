import { restoreVariant, variantSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { VARIANTS } from './docs.ts';
import { variantActionInputSchema } from './item-inputs.ts';

export const restoreVariantProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'item',
    openapi: {
      method: 'POST',
      path: '/merchant/items/{itemId}/variants/{variantId}/restore',
      tags: VARIANTS,
      summary: 'Restore an archived variant',
      description: 'Idempotent.',
    },
    successStatus: 201,
  })
  .input(variantActionInputSchema)
  .output(variantSchema)
  .mutation(({ ctx, input }) => restoreVariant(ctx.db, writeContext(ctx), input.itemId, input.variantId));
