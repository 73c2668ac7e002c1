import {
  customerProfileSchema,
  updateCustomerProfile,
  updateCustomerProfileInputSchema,
} from '@commerce/customers';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { customerProcedure } from '../../../trpc.ts';
import { limitSignIn } from '../../public/customer-auth/sign-in.ts';
import { PROFILE_TAGS } from './docs.ts';

export const updateProfileProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/customer/account/profile',
      tags: PROFILE_TAGS,
      summary: 'Update name and phone; ask to change the email',
      description:
        '`null` or an empty string clears a field. A new `email` is not applied at once: it becomes `pendingEmail` and a sign-in email goes to it; verifying it changes the email (and signs in), unless another customer of the store has it by then (`401 VERIFICATION_FAILED`). Sending the current email withdraws a pending one. Rate-limited like a sign-in request.',
    },
    errors: ['RATE_LIMIT_EXCEEDED'],
  })
  .input(updateCustomerProfileInputSchema)
  .output(customerProfileSchema)
  .mutation(async ({ ctx, input }) => {
    const organizationId = ctx.customer.organizationId;
    if (input.email !== undefined && input.email.toLowerCase() !== ctx.customer.email.toLowerCase()) {
      await limitSignIn(ctx, organizationId, 'request', input.email);
    }
    return updateCustomerProfile(
      ctx.db,
      {
        organizationId,
        at: ctx.clock.now(),
        email: customerEmailConfig(ctx),
      },
      ctx.customer.id,
      input,
    );
  });
