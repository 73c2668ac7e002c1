import { assertBookingVisible, bookingIdInputSchema, merchantBookingDetailSchema } from '@commerce/bookings';
import { merchantProcedure } from '../../../trpc.ts';
import { bookingTransitionContext, bookingViewer, detailOrNotFound } from './booking-mutation.ts';
import { TAGS } from './docs.ts';

export const getProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/bookings/{id}',
      tags: TAGS,
      summary: 'A booking by id',
      description:
        "Open to any member; Staff only for bookings assigned to them. The customer's booking detail plus `customerNote`, `assigneeUserIds`, `history[]`, `allocations[]` (every requirement's resources) and, for `REQUESTED`, `capacityConflict` (approval would fail now). An unknown id, another organization's, or one not assigned to a Staff member is the neutral `404`.",
    },
  })
  .input(bookingIdInputSchema)
  .output(merchantBookingDetailSchema)
  .query(async ({ ctx, input }) => {
    const bookingCtx = bookingTransitionContext(ctx);
    await assertBookingVisible(ctx.db, bookingCtx.organizationId, input.id, bookingViewer(ctx));
    return detailOrNotFound(ctx.db, bookingCtx, input.id);
  });
