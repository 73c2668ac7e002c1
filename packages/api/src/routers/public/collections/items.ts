import {
  listPublicCollectionItems,
  publicCollectionItemsQuerySchema,
  publicItemSchema,
} from '@commerce/catalog';
import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const itemsProcedure = tenantProcedure
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
  );
