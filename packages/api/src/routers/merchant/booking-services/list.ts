import { listServices, serviceListQuerySchema, serviceSchema } from '@commerce/bookings';
import { pageSchema } from '@commerce/core';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/booking-services',
      tags: TAGS,
      summary: "The organization's booking services, in the merchant order",
      description:
        'Open to any member. Ordered by `sortOrder` ascending, then `createdAt` and `id` descending; keyset-paginated (`limit` 1 to 200, default 50; pass `nextCursor` as `cursor`; a cursor naming no service of the organization is `400`). Archived services are hidden unless `archived=true`; `status=ARCHIVED` lists only them. `search` is a case-insensitive substring of the name or description. Boolean parameters accept true/1/yes and false/0/no in any case; anything else is `400`.',
    },
  })
  .input(serviceListQuerySchema)
  .output(pageSchema(serviceSchema))
  .query(async ({ ctx, input }) =>
    listServices(
      ctx.db,
      ctx.tenant.organizationId,
      input,
      await storeCurrency(ctx, ctx.tenant.organizationId),
    ),
  );
