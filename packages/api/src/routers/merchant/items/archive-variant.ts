import { archiveVariant, variantSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { VARIANTS } from './docs.ts';
import { variantActionInputSchema } from './item-inputs.ts';

export const archiveVariantProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/items/{itemId}/variants/{variantId}/archive',
      tags: VARIANTS,
      summary: 'Archive (soft-delete) a variant',
      description:
        "No body. Sets `archivedAt`; the variant leaves the `archived=false` list and the item's `salePriceInCents`; its SKU stays taken. Idempotent. Answers `201` with the variant. Audited as `variant.archived` when something changed.",
    },
    successStatus: 201,
  })
  .input(variantActionInputSchema)
  .output(variantSchema)
  .mutation(({ ctx, input }) => archiveVariant(ctx.db, writeContext(ctx), input.itemId, input.variantId));
