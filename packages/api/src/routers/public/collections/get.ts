import {
  getPublicCollection,
  publicCollectionSchema,
  publicCollectionSlugInputSchema,
} from '@commerce/catalog';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/collections/{slug}',
      tags: TAGS,
      summary: 'One storefront collection by slug',
      description: 'An `ACTIVE`, unarchived collection; any other slug is the neutral `404`.',
    },
    rateLimit: 'public-read',
    publicCache: { kind: 'collection', read: 'detail' },
  })
  .input(publicCollectionSlugInputSchema)
  .output(publicCollectionSchema)
  .query(({ ctx, input }) => getPublicCollection(ctx.db, ctx.tenant.organizationId, input.slug));
