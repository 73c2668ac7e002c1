import { createResource, createResourceInputSchema, resourceSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { RESOURCE_BODY, TAGS } from './docs.ts';
import { bookingWriteContext } from './resource-write-context.ts';

export const createProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/booking-resources',
      tags: TAGS,
      summary: 'Create a resource',
      description: `${RESOURCE_BODY}\n\nA new resource is \`ACTIVE\`. Answers \`201\`. Audited as \`booking_resource.created\`.`,
    },
    successStatus: 201,
  })
  .input(createResourceInputSchema)
  .output(resourceSchema)
  .mutation(({ ctx, input }) => createResource(ctx.db, bookingWriteContext(ctx), input));
