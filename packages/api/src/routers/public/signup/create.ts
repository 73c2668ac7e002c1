import { captureSignup, captureSignupInputSchema, signupAcknowledgementSchema } from '@commerce/admin';
import { tenantProcedure } from '../../../trpc.ts';

export const createProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/signup',
      tags: ['Public: signup'],
      summary: 'Ask for a store of your own (self-serve signup request)',
      description: [
        'Body `{ email, name?, companyName?, website?, message? }`; unknown keys are `400`. The storefront named by `x-organization-slug` is recorded as the source of the request.',
        'Every accepted request answers `201 { "ok": true }`, the same bytes whether the email is new or already captured: no id, status, timestamp or hint. A repeat for a known email (any case) updates the stored details it sends and keeps the others; there is never a second record.',
        'Requests go to the platform operator (`GET /platform/signups`); nothing is created in the storefront organization.',
      ].join('\n\n'),
    },
    successStatus: 201,
    rateLimit: 'public-signup',
  })
  .input(captureSignupInputSchema)
  .output(signupAcknowledgementSchema)
  .mutation(({ ctx, input }) =>
    captureSignup(ctx.db, { sourceOrganizationId: ctx.tenant.organizationId, at: ctx.clock.now() }, input),
  );
