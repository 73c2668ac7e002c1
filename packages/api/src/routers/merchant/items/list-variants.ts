import { listVariants, variantListQuerySchema, variantSchema } from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import { merchantProcedure } from '../../../trpc.ts';
import { VARIANTS } from './docs.ts';

export const listVariantsProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/items/{itemId}/variants',
      tags: VARIANTS,
      summary: "An item's variants",
    },
  })
  .input(variantListQuerySchema)
  .output(pageSchema(variantSchema))
  .query(({ ctx, input }) => listVariants(ctx.db, ctx.tenant.organizationId, input));
