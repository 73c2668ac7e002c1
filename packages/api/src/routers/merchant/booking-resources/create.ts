import { createResource, createResourceInputSchema, resourceSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

export const createProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/booking-resources',
      tags: TAGS,
      summary: 'Create a resource',
      description: 'A new resource is `ACTIVE`. Its capacity is shared by every service that uses it.',
    },
    successStatus: 201,
  })
  .input(createResourceInputSchema)
  .output(resourceSchema)
  .mutation(({ ctx, input }) => createResource(ctx.db, writeContext(ctx), input));
