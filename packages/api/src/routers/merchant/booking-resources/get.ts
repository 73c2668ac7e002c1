import { getResource, resourceIdInputSchema, resourceSchema } from '@commerce/bookings';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const getProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/booking-resources/{id}',
      tags: TAGS,
      summary: 'A resource by id',
      description: 'Archived resources included.',
    },
  })
  .input(resourceIdInputSchema)
  .output(resourceSchema)
  .query(({ ctx, input }) => getResource(ctx.db, ctx.tenant.organizationId, input.id));
