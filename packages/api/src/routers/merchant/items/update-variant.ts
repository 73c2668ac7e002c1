import { updateVariant, updateVariantInputSchema, variantSchema } from '@commerce/catalog';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { VARIANTS } from './docs.ts';

export const updateVariantProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'item',
    openapi: {
      method: 'PATCH',
      path: '/merchant/items/{itemId}/variants/{variantId}',
      tags: VARIANTS,
      summary: 'Change a variant (stock, prices, options …)',
      description: [
        'Fields not sent stay; `options` is replaced whole. A patch that changes nothing records nothing.',
        'Taking tracked stock from 0 to a positive number emails each active back-in-stock signup of the item once (not while the item or variant is archived or draft, nor from untracked stock).',
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
