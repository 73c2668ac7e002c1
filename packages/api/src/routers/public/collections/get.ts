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
      description:
        'An ACTIVE, non-archived collection; an unknown, DRAFT or archived slug is `404 RESOURCE_NOT_FOUND`, alike.',
    },
    rateLimit: 'public-read',
  })
  .input(publicCollectionSlugInputSchema)
  .output(publicCollectionSchema)
  .query(({ ctx, input }) => getPublicCollection(ctx.db, ctx.tenant.organizationId, input.slug));
