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
      description: [
        'Body: any of `name` (at most 200), `phone` (at most 50) — `null` or an empty string clears — and `email`. Unknown keys are `400`. Answers the profile.',
        'An `email` different from the current one is not applied: it becomes `pendingEmail`, and a `CUSTOMER_AUTH` email with a link and a code goes to the new address. Verifying it through `POST /public/customer/auth/verify` changes `email` (and signs in); a later request replaces the pending one, and sending the current email withdraws it. If another customer of the store has the new email by then, the verification fails with the neutral `401 VERIFICATION_FAILED`. Asking for a new email is rate-limited like a sign-in request (per client, and per the new email).',
      ].join('\n\n'),
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
