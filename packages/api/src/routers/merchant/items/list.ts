import { itemListQuerySchema, itemSchema, listItems } from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import { merchantProcedure } from '../../../trpc.ts';
import { ITEMS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/items',
      tags: ITEMS,
      summary: "The organization's items, in the merchant order",
      description:
        'In the merchant order (`sortOrder`, then newest first). Archived items are hidden unless `archived=true`.',
    },
  })
  .input(itemListQuerySchema)
  .output(pageSchema(itemSchema))
  .query(({ ctx, input }) => listItems(ctx.db, ctx.tenant.organizationId, input));
