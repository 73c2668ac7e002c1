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
      description: [
        PUBLIC_ITEM,
        'A flat array in the merchant order (`sortOrder` ascending, then newest first). For the next page pass the `id` of the last item as `cursor` (`limit` 1 to 200, default 50); a page shorter than `limit` is the last. `search` is a case-insensitive substring of the name, description or a tag; `type` filters exactly; `collection` (a collection slug) keeps the items of that collection when it is `ACTIVE` and unarchived, and nothing otherwise.',
      ].join('\n\n'),
    },
    rateLimit: 'public-read',
  })
  .input(publicItemListQuerySchema)
  .output(z.array(publicItemSchema))
  .query(({ ctx, input }) => listPublicItems(ctx.db, ctx.tenant.organizationId, input));
