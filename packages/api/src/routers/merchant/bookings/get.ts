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
        'Staff read only bookings assigned to them; any other id is the neutral `404`. For a request, `capacityConflict` says whether approval would fail now.',
    },
  })
  .input(bookingIdInputSchema)
  .output(merchantBookingDetailSchema)
  .query(async ({ ctx, input }) => {
    const bookingCtx = bookingTransitionContext(ctx);
    await assertBookingVisible(ctx.db, bookingCtx.organizationId, input.id, bookingViewer(ctx));
    return detailOrNotFound(ctx.db, bookingCtx, input.id);
  });
