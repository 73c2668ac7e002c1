import { captureSignup, captureSignupInputSchema, signupAcknowledgementSchema } from '@commerce/admin';
import { tenantProcedure } from '../../../trpc.ts';

export const createProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/signup',
      tags: ['Public: signup'],
      summary: 'Ask for a store of your own (self-serve signup request)',
      description:
        'Every accepted request answers the same `201 { "ok": true }`, whether the email is new or known; a repeat updates the details it sends, never a second record. The storefront is recorded as the source; the platform operator reads the requests.',
    },
    successStatus: 201,
    rateLimit: 'public-signup',
  })
  .input(captureSignupInputSchema)
  .output(signupAcknowledgementSchema)
  .mutation(({ ctx, input }) =>
    captureSignup(ctx.db, { sourceOrganizationId: ctx.tenant.organizationId, at: ctx.clock.now() }, input),
  );
