import { listResources, resourceListQuerySchema, resourceSchema } from '@commerce/bookings';
import { pageSchema } from '@commerce/core';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/booking-resources',
      tags: TAGS,
      summary: "The organization's bookable resources",
      description: 'Without `status`, archived resources are listed too.',
    },
  })
  .input(resourceListQuerySchema)
  .output(pageSchema(resourceSchema))
  .query(({ ctx, input }) => listResources(ctx.db, ctx.tenant.organizationId, input));
