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
      description:
        'Staff see only bookings assigned to them (a `STAFF` resource of theirs, or named in `assigneeUserIds`).',
    },
  })
  .input(merchantBookingListQuerySchema)
  .output(pageSchema(merchantBookingSummarySchema))
  .query(({ ctx, input }) =>
    listMerchantBookings(ctx.db, ctx.tenant.organizationId, bookingViewer(ctx), input),
  );
