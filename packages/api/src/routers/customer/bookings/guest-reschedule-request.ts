import {
  customerActionResultSchema,
  guestTokenInputSchema,
  rescheduleRequestInputSchema,
} from '@commerce/bookings';
import { tenantProcedure } from '../../../trpc.ts';
import { guestChange } from './booking-changes.ts';
import { ACTION_ERRORS, GUEST_ONCE, GUEST_TAGS, POLICY, RESCHEDULE, TOKEN } from './docs.ts';

export const guestRescheduleRequestProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/bookings/{token}/reschedule-request',
      tags: GUEST_TAGS,
      summary: 'Move a booking through its management link, or ask the merchant to',
      description: [RESCHEDULE, POLICY, GUEST_ONCE, TOKEN].join('\n\n'),
    },
    rateLimit: 'public-read',
    errors: ACTION_ERRORS,
  })
  .input(rescheduleRequestInputSchema.safeExtend(guestTokenInputSchema.shape))
  .output(customerActionResultSchema)
  .mutation(({ ctx, input }) => {
    const { token, ...body } = input;
    return guestChange(ctx, token, { kind: 'RESCHEDULE', ...body });
  });
