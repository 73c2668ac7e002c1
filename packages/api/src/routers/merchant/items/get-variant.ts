import { getVariant, variantPathInputSchema, variantSchema } from '@commerce/catalog';
import { merchantProcedure } from '../../../trpc.ts';
import { VARIANTS } from './docs.ts';

export const getVariantProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/items/{itemId}/variants/{variantId}',
      tags: VARIANTS,
      summary: 'A variant of an item',
      description: 'Archived variants included.',
    },
  })
  .input(variantPathInputSchema)
  .output(variantSchema)
  .query(({ ctx, input }) => getVariant(ctx.db, ctx.tenant.organizationId, input.itemId, input.variantId));
