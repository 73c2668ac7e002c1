import {
  listMerchantBookings,
  merchantBookingListQuerySchema,
  merchantBookingSummarySchema,
} from '@commerce/bookings';
import { pageSchema } from '@commerce/core';
import { merchantProcedure } from '../../../trpc.ts';
import { bookingViewer } from './booking-mutation.ts';
import { TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/bookings',
      tags: TAGS,
      summary: "The organization's bookings",
      description: [
        'Open to any member; Staff see only bookings assigned to them (a `STAFF` resource of theirs, or named in `assigneeUserIds`).',
        'Filters: `status` (comma list of `REQUESTED`, `PENDING_PAYMENT`, `CONFIRMED`, `DECLINED`, `CANCELLED`, `EXPIRED`; an unknown one is `400`), `serviceId`, `resourceId` (bookings given that resource, any requirement), `customerEmail` (exact, case-insensitive), `from` and `to` (ISO 8601 with offset, whole minute: bookings overlapping `[from, to)`; `to` must be after `from`), `groupRef` (accepted; matches nothing until booking groups exist), `hasPendingChangeRequest` (true/1/yes or false/0/no).',
        'Ordered by `startsAt` then `id`, `order` `asc` (default) or `desc`; keyset-paginated (`limit` 1 to 200, default 50; pass `nextCursor` as `cursor`; a cursor naming no booking you can see is `400`).',
      ].join('\n\n'),
    },
  })
  .input(merchantBookingListQuerySchema)
  .output(pageSchema(merchantBookingSummarySchema))
  .query(({ ctx, input }) =>
    listMerchantBookings(ctx.db, ctx.tenant.organizationId, bookingViewer(ctx), input),
  );
