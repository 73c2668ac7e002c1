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
      description: `${PUBLIC_ITEM} With its unarchived variants; a variant's stock count is never shown, only \`inStock\`. Any other slug is the neutral \`404\`.`,
    },
    rateLimit: 'public-read',
    publicCache: { kind: 'item', read: 'detail' },
  })
  .input(itemSlugInputSchema)
  .output(publicItemDetailSchema)
  .query(({ ctx, input }) => getPublicItem(ctx.db, ctx.tenant.organizationId, input.slug));
