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
        "The collection's `ACTIVE` items in the merchant's order, shaped as the public item read. A draft or archived collection answers `[]`; a slug that names no collection is `404 RESOURCE_NOT_FOUND`. For the next page pass the last item's `id` as `cursor`.",
    },
    rateLimit: 'public-read',
    publicCache: { kind: 'collection', read: 'collection-items' },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(publicCollectionItemsQuerySchema)
  .output(z.array(publicItemSchema))
  .query(({ ctx, input }) =>
    listPublicCollectionItems(
      ctx.db,
      ctx.tenant.organizationId,
      input.slug,
      { limit: input.limit, cursor: input.cursor },
      // The answer names no collection: its HTTP cache keys take the id from here.
      (collectionId) => {
        ctx.observed.cacheSubjectId = collectionId;
      },
    ),
  );
