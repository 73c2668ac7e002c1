import {
  cancelRequestInputSchema,
  customerActionResultSchema,
  customerBookingIdInputSchema,
} from '@commerce/bookings';
import { customerProcedure } from '../../../trpc.ts';
import { accountChange } from './booking-changes.ts';
import { ACCOUNT_TAGS, ACTION_ERRORS, CANCEL, KEY_OPTIONAL, OWNED, POLICY } from './docs.ts';

export const accountCancelRequestProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/account/bookings/{id}/cancel-request',
      tags: ACCOUNT_TAGS,
      summary: 'Cancel a booking, or ask the merchant to',
      description: [CANCEL, POLICY, KEY_OPTIONAL, OWNED].join('\n\n'),
    },
    errors: [...ACTION_ERRORS, 'IDEMPOTENCY_KEY_REUSED'],
  })
  .input(cancelRequestInputSchema.extend(customerBookingIdInputSchema.shape))
  .output(customerActionResultSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...body } = input;
    return accountChange(ctx, id, 'POST /customer/account/bookings/{id}/cancel-request', {
      kind: 'CANCEL',
      ...body,
    });
  });
