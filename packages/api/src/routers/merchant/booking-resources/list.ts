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
      description:
        'Open to any member. Ordered by `name`, then `id`; keyset-paginated (`limit` 1 to 200, default 50; pass `nextCursor` as `cursor`; a cursor naming no resource of the organization is `400`). `status` (`ACTIVE` or `ARCHIVED`) and `kind` filter exactly; without `status` archived resources are listed too. `search` is a case-insensitive substring of the name.',
    },
  })
  .input(resourceListQuerySchema)
  .output(pageSchema(resourceSchema))
  .query(({ ctx, input }) => listResources(ctx.db, ctx.tenant.organizationId, input));
