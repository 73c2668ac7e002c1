import { bookingDetailSchema, getGuestBooking, guestTokenInputSchema } from '@commerce/bookings';
import { tenantProcedure } from '../../../trpc.ts';
import { GUEST_TAGS, TOKEN } from './docs.ts';

export const guestGetProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/bookings/{token}',
      tags: GUEST_TAGS,
      summary: 'The booking a management link opens',
      description: `The booking detail, as the account route gives it; after the token’s one change every action is \`NONE\`. ${TOKEN}`,
    },
    rateLimit: 'public-read',
  })
  .input(guestTokenInputSchema)
  .output(bookingDetailSchema)
  .query(({ ctx, input }) =>
    getGuestBooking(ctx.db, { organizationId: ctx.tenant.organizationId, at: ctx.clock.now() }, input.token),
  );
