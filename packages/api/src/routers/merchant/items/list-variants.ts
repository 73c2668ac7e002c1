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
      description:
        'Open to any member. `archived` is required: `false` lists the non-archived variants, `true` every variant, archived ones included (true/1/yes, false/0/no in any case; missing or anything else is `400`). Ordered by `sortOrder`, then oldest first; keyset-paginated (`limit` 1 to 200, default 50; `cursor` is the previous `nextCursor`). An unknown item, or one of another organization, is `404`.',
    },
  })
  .input(variantListQuerySchema)
  .output(pageSchema(variantSchema))
  .query(({ ctx, input }) => listVariants(ctx.db, ctx.tenant.organizationId, input));
