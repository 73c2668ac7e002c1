import {
  customerActionResultSchema,
  customerBookingIdInputSchema,
  rescheduleRequestInputSchema,
} from '@commerce/bookings';
import { customerProcedure } from '../../../trpc.ts';
import { accountChange } from './booking-changes.ts';
import { ACCOUNT_TAGS, ACTION_ERRORS, KEY_OPTIONAL, OWNED, POLICY, RESCHEDULE } from './docs.ts';

export const accountRescheduleRequestProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/account/bookings/{id}/reschedule-request',
      tags: ACCOUNT_TAGS,
      summary: 'Move a booking, or ask the merchant to',
      description: [RESCHEDULE, POLICY, KEY_OPTIONAL, OWNED].join('\n\n'),
    },
    errors: [...ACTION_ERRORS, 'IDEMPOTENCY_KEY_REUSED'],
  })
  .input(rescheduleRequestInputSchema.safeExtend(customerBookingIdInputSchema.shape))
  .output(customerActionResultSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...body } = input;
    return accountChange(ctx, id, 'POST /customer/account/bookings/{id}/reschedule-request', {
      kind: 'RESCHEDULE',
      ...body,
    });
  });
