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
      description:
        'Open to any member; archived variants included. A variant of another item or organization, or a missing one, is `404`.',
    },
  })
  .input(variantPathInputSchema)
  .output(variantSchema)
  .query(({ ctx, input }) => getVariant(ctx.db, ctx.tenant.organizationId, input.itemId, input.variantId));
