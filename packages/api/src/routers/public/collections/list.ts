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
        "`ACTIVE`, unarchived collections in the merchant's order. For the next page pass the last collection's `id` as `cursor`. `itemCount` counts the items a shopper sees.",
    },
    rateLimit: 'public-read',
    publicCache: { kind: 'collection', read: 'list' },
  })
  .input(publicCollectionListQuerySchema)
  .output(z.array(publicCollectionSchema))
  .query(({ ctx, input }) => listPublicCollections(ctx.db, ctx.tenant.organizationId, input));
