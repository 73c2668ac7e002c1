import { updateVariant, updateVariantInputSchema, variantSchema } from '@commerce/catalog';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { VARIANTS } from './docs.ts';

export const updateVariantProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/items/{itemId}/variants/{variantId}',
      tags: VARIANTS,
      summary: 'Change a variant (stock, prices, options …)',
      description: [
        'Any subset of the create fields; `null` clears `sku`, the prices, `inventoryQuantity` (untracked stock) and the shipping dimensions; `options` is replaced wholesale. The sale price must not end above the price (`400`). An empty body changes nothing.',
        'A SKU of another variant is `409 SKU_TAKEN`; a variant of another item or organization `404`. A change is audited as `variant.updated` with `{ itemId, fields }`; a patch that changes nothing records nothing.',
        'Taking a tracked `inventoryQuantity` from `0` to a positive number queues one `BACK_IN_STOCK` email for each active back-in-stock signup of this variant or of any variant of the item, in the same transaction; each signup is then `NOTIFIED` and hears nothing more until the shopper signs up again. Nothing is sent while the item is draft or archived, or the variant archived, nor when stock goes from untracked (`null`) to a number.',
      ].join('\n\n'),
    },
    errors: ['SKU_TAKEN'],
  })
  .input(updateVariantInputSchema)
  .output(variantSchema)
  .mutation(({ ctx, input }) => {
    const { itemId, variantId, ...changes } = input;
    return updateVariant(
      ctx.db,
      {
        ...writeContext(ctx),
        email: customerEmailConfig(ctx),
      },
      itemId,
      variantId,
      changes,
    );
  });
