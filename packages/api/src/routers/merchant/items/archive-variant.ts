import { archiveVariant, variantSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { VARIANTS } from './docs.ts';
import { variantActionInputSchema } from './item-inputs.ts';

export const archiveVariantProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'item',
    openapi: {
      method: 'POST',
      path: '/merchant/items/{itemId}/variants/{variantId}/archive',
      tags: VARIANTS,
      summary: 'Archive (soft-delete) a variant',
      description:
        "Idempotent. The variant leaves the non-archived list and the item's sale price; its SKU stays taken.",
    },
    successStatus: 201,
  })
  .input(variantActionInputSchema)
  .output(variantSchema)
  .mutation(({ ctx, input }) => archiveVariant(ctx.db, writeContext(ctx), input.itemId, input.variantId));
