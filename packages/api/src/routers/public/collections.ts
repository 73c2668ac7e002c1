import {
  getPublicCollection,
  listPublicCollectionItems,
  listPublicCollections,
  publicCollectionItemsQuerySchema,
  publicCollectionListQuerySchema,
  publicCollectionSchema,
  publicCollectionSlugInputSchema,
  publicItemSchema,
} from '@commerce/catalog';
import { z } from 'zod';
import { router, tenantProcedure } from '../../trpc.ts';

const TAGS = ['Public: catalog'];

export const publicCollectionsRouter = router({
  list: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/collections',
        tags: TAGS,
        summary: "The storefront's collections",
        description:
          'ACTIVE collections only, archived ones excluded, ordered by `sortOrder` ascending, then newest first, then `id` descending. A flat array; for the next page pass the `id` of the last collection as `cursor` (limit 1 to 200, default 50). `itemCount` counts the ACTIVE items a shopper sees.',
      },
      rateLimit: 'public-read',
    })
    .input(publicCollectionListQuerySchema)
    .output(z.array(publicCollectionSchema))
    .query(({ ctx, input }) => listPublicCollections(ctx.db, ctx.tenant.organizationId, input)),

  get: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/collections/{slug}',
        tags: TAGS,
        summary: 'One storefront collection by slug',
        description:
          'An ACTIVE, non-archived collection; an unknown, DRAFT or archived slug is `404 RESOURCE_NOT_FOUND`, alike.',
      },
      rateLimit: 'public-read',
    })
    .input(publicCollectionSlugInputSchema)
    .output(publicCollectionSchema)
    .query(({ ctx, input }) => getPublicCollection(ctx.db, ctx.tenant.organizationId, input.slug)),

  items: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/collections/{slug}/items',
        tags: TAGS,
        summary: "A storefront collection's items, in the collection's order",
        description:
          "The collection's ACTIVE items in the merchant's order (DRAFT and archived items are hidden), each decorated with `salePriceInCents`, `ratingAverage`, `ratingCount` and `collectionIds` (ACTIVE collections only), shaped like the public item read (reserved `__` metafields removed). A DRAFT or archived collection answers `200 []`; a slug that names no collection of the organization is `404 RESOURCE_NOT_FOUND`. A flat array; for the next page pass the `id` of the last item as `cursor` (limit 1 to 200, default 50); a cursor that is not an item of the collection is `400`.",
      },
      rateLimit: 'public-read',
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(publicCollectionItemsQuerySchema)
    .output(z.array(publicItemSchema))
    .query(({ ctx, input }) =>
      listPublicCollectionItems(ctx.db, ctx.tenant.organizationId, input.slug, {
        limit: input.limit,
        cursor: input.cursor,
      }),
    ),
});
