import { createVariant, createVariantInputSchema, variantSchema } from '@commerce/catalog';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { VARIANTS } from './docs.ts';

export const createVariantProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'item',
    openapi: {
      method: 'POST',
      path: '/merchant/items/{itemId}/variants',
      tags: VARIANTS,
      summary: 'Add a variant to an item',
      description:
        'A unit takes its shipping dimensions from its variant when the variant has all four, else from its item. A SKU is unique in the organization, archived variants included (`409 SKU_TAKEN`).',
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
