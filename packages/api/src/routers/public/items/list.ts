import { listPublicItems, publicItemListQuerySchema, publicItemSchema } from '@commerce/catalog';
import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';
import { PUBLIC_ITEM, TAGS } from './docs.ts';

export const listProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/items',
      tags: TAGS,
      summary: "The storefront's items",
      description: `${PUBLIC_ITEM} In the merchant's order; for the next page pass the last item's \`id\` as \`cursor\` (a shorter page is the last). A \`collection\` that is not \`ACTIVE\` and unarchived keeps nothing.`,
    },
    rateLimit: 'public-read',
    publicCache: { kind: 'item', read: 'list' },
  })
  .input(publicItemListQuerySchema)
  .output(z.array(publicItemSchema))
  .query(({ ctx, input }) => listPublicItems(ctx.db, ctx.tenant.organizationId, input));
