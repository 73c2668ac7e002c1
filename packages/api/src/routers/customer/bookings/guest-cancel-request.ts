import {
  cancelRequestInputSchema,
  customerActionResultSchema,
  guestTokenInputSchema,
} from '@commerce/bookings';
import { tenantProcedure } from '../../../trpc.ts';
import { guestChange } from './booking-changes.ts';
import { ACTION_ERRORS, CANCEL, GUEST_ONCE, GUEST_TAGS, POLICY, TOKEN } from './docs.ts';

export const guestCancelRequestProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/bookings/{token}/cancel-request',
      tags: GUEST_TAGS,
      summary: 'Cancel a booking through its management link, or ask the merchant to',
      description: [CANCEL, POLICY, GUEST_ONCE, TOKEN].join('\n\n'),
    },
    rateLimit: 'public-read',
    errors: ACTION_ERRORS,
  })
  .input(cancelRequestInputSchema.extend(guestTokenInputSchema.shape))
  .output(customerActionResultSchema)
  .mutation(({ ctx, input }) => {
    const { token, ...body } = input;
    return guestChange(ctx, token, { kind: 'CANCEL', ...body });
  });
