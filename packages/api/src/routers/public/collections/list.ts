import {
  listPublicCollections,
  publicCollectionListQuerySchema,
  publicCollectionSchema,
} from '@commerce/catalog';
import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listProcedure = tenantProcedure
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
  .query(({ ctx, input }) => listPublicCollections(ctx.db, ctx.tenant.organizationId, input));
