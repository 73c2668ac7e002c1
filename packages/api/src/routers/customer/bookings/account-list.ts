import {
  customerBookingListQuerySchema,
  customerBookingSummarySchema,
  listCustomerBookings,
} from '@commerce/bookings';
import { pageSchema } from '@commerce/core';
import { customerProcedure } from '../../../trpc.ts';
import { owner } from './booking-changes.ts';
import { ACCOUNT_TAGS, OWNED } from './docs.ts';

export const accountListProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/bookings',
      tags: ACCOUNT_TAGS,
      summary: 'The customer’s bookings',
      description: [
        '`{ data, nextCursor }`: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor that names no booking of the customer is `400`. `status`: a comma list. `timeframe`: `UPCOMING` (ending after now) by `startsAt` ascending, `PAST` (ended) by `startsAt` descending; without it every booking, `startsAt` descending.',
        'Each entry is a summary: `id`, `code`, `status`, `service { id, slug, name }`, `timezone`, `startsAt`/`endsAt` in its offset, `quantity`, `price { currency, totalInCents }`, `actions` as the detail’s, `hasPendingChangeRequest`, `createdAt`. The detail has the rest.',
        OWNED,
      ].join('\n\n'),
    },
  })
  .input(customerBookingListQuerySchema)
  .output(pageSchema(customerBookingSummarySchema))
  .query(({ ctx, input }) =>
    listCustomerBookings(
      ctx.db,
      { organizationId: ctx.customer.organizationId, at: ctx.clock.now() },
      owner(ctx),
      input,
    ),
  );
