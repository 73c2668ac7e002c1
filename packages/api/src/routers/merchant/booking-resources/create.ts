import { createResource, createResourceInputSchema, resourceSchema } from '@commerce/bookings';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { RESOURCE_BODY, TAGS } from './docs.ts';

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
  .mutation(({ ctx, input }) => createResource(ctx.db, writeContext(ctx), input));
