import {
  getPublicItem,
  itemSlugInputSchema,
  listPublicItems,
  publicItemDetailSchema,
  publicItemListQuerySchema,
  publicItemSchema,
  resolveItemsInputSchema,
  resolvePublicItems,
} from '@commerce/catalog';
import { z } from 'zod';
import { router, tenantProcedure } from '../../trpc.ts';

const TAGS = ['Public: catalog'];

const PUBLIC_ITEM =
  'Only `ACTIVE`, unarchived items are public. Each item carries `salePriceInCents`, `ratingAverage` and `ratingCount` (published reviews) and `collectionIds` (its `ACTIVE`, unarchived collections); `metafields` never shows the keys starting with `__`, which are the service’s own.';

export const publicItemsRouter = router({
  list: tenantProcedure
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
    .query(({ ctx, input }) => listPublicItems(ctx.db, ctx.tenant.organizationId, input)),

  resolve: tenantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/items/resolve',
        tags: TAGS,
        summary: 'The public items among a list of ids (saved-cart restore)',
        description: [
          'Body `{ ids }`: 1 to 100 item ids; duplicates are answered once.',
          `Answers a flat array of the public items among them, in the order asked. Ids that are unknown, of a draft or archived item, or of another organization are left out silently. ${PUBLIC_ITEM}`,
        ].join('\n\n'),
      },
      rateLimit: 'public-read',
    })
    .input(resolveItemsInputSchema)
    .output(z.array(publicItemSchema))
    .mutation(({ ctx, input }) => resolvePublicItems(ctx.db, ctx.tenant.organizationId, input)),

  get: tenantProcedure
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
    .query(({ ctx, input }) => getPublicItem(ctx.db, ctx.tenant.organizationId, input.slug)),
});
