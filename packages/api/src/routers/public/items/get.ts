import { getPublicItem, itemSlugInputSchema, publicItemDetailSchema } from '@commerce/catalog';
import { tenantProcedure } from '../../../trpc.ts';
import { PUBLIC_ITEM, TAGS } from './docs.ts';

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/items/{slug}',
      tags: TAGS,
      summary: 'A storefront item by slug',
      description: `${PUBLIC_ITEM} With its non-archived \`variants\` in the merchant's order, each with \`inStock\` (true when stock is untracked or above zero; the count itself is not shown). An unknown slug, a draft or an archived item is \`404 RESOURCE_NOT_FOUND\`, the same answer for each.`,
    },
    rateLimit: 'public-read',
  })
  .input(itemSlugInputSchema)
  .output(publicItemDetailSchema)
  .query(({ ctx, input }) => getPublicItem(ctx.db, ctx.tenant.organizationId, input.slug));
