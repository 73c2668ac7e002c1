import { getItemBySlug, itemSchema, itemSlugInputSchema } from '@commerce/catalog';
import { merchantProcedure } from '../../../trpc.ts';
import { ITEMS } from './docs.ts';

export const getBySlugProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/items/by-slug/{slug}',
      tags: ITEMS,
      summary: 'An item by slug',
      description: 'Archived items included.',
    },
  })
  .input(itemSlugInputSchema)
  .output(itemSchema)
  .query(({ ctx, input }) => getItemBySlug(ctx.db, ctx.tenant.organizationId, input.slug));
