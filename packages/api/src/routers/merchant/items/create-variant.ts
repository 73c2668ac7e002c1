import { createVariant, createVariantInputSchema, variantSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { VARIANTS } from './docs.ts';

export const createVariantProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/items/{itemId}/variants',
      tags: VARIANTS,
      summary: 'Add a variant to an item',
      description: [
        'Body: `name` (required, 1 to 200), `sku` (at most 100, or null; unique per organization among variants, archived ones included), `options` (option name to value, at most 20), `priceInCents` and `salePriceInCents` (integers 0 or more, or null; the sale price must not be above the price), `inventoryQuantity` (integer 0 or more; null means stock is not tracked), `sortOrder` (default 0; ties oldest first), `shippingWeightGrams`, `shippingLengthMm`, `shippingWidthMm`, `shippingHeightMm` (integers of at least 1, or null; a unit takes all four from its variant when the variant has all four, else from its item). Unknown keys are `400`.',
        'A SKU another variant of the organization has is `409 SKU_TAKEN`. An unknown item, or one of another organization, is `404`. Audited as `variant.created`.',
      ].join('\n\n'),
    },
    successStatus: 201,
    errors: ['SKU_TAKEN'],
  })
  .input(createVariantInputSchema)
  .output(variantSchema)
  .mutation(({ ctx, input }) => {
    const { itemId, ...body } = input;
    return createVariant(ctx.db, writeContext(ctx), itemId, body);
  });
