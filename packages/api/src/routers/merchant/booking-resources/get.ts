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
      description:
        'Open to any member; archived included. An unknown id, or one of another organization, is `404`.',
    },
  })
  .input(resourceIdInputSchema)
  .output(resourceSchema)
  .query(({ ctx, input }) => getResource(ctx.db, ctx.tenant.organizationId, input.id));
