import {
  customerSessionIssuedSchema,
  sessionCookie,
  verifyForm,
  verifySignIn,
  verifySignInInputSchema,
} from '@commerce/customers';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';
import { limitSignIn } from './sign-in.ts';

export const verifyProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/customer/auth/verify',
      tags: TAGS,
      summary: 'Sign in with the emailed link token or code',
      description: [
        "Signs in with the emailed link's token or the email and code. Answers the session token and sets the `__Host-session` cookie; the session lives 30 days and is renewed on use when less than 15 days remain. The first verification of an email creates the customer; verifying an email change moves the customer to the new email. Signing in uses up the email's other codes and links.",
        'Every failure is the one neutral `401 VERIFICATION_FAILED`. Rate-limited per client address and, for a code, per email (RATE_LIMIT_SIGN_IN_VERIFY_*).',
      ].join('\n\n'),
    },
    errors: ['VERIFICATION_FAILED', 'RATE_LIMIT_EXCEEDED'],
  })
  .input(verifySignInInputSchema)
  .output(customerSessionIssuedSchema)
  .mutation(async ({ ctx, input }) => {
    const organizationId = ctx.tenant.organizationId;
    const form = verifyForm(input);
    await limitSignIn(ctx, organizationId, 'verify', 'email' in form ? form.email : undefined);
    const at = ctx.clock.now();
    const session = await verifySignIn(ctx.db, { organizationId, at }, form);
    ctx.resHeaders.append('Set-Cookie', sessionCookie(session.token, session.expiresAt, at));
    ctx.observed.customerId = session.customerId;
    return {
      // The hosted app (the first-party /trpc surface) holds the session only as the HttpOnly
      // cookie: its page script never receives the token. BYO servers get it over REST.
      ...(ctx.request.surface === 'rest' ? { sessionToken: session.token } : {}),
      expiresAt: session.expiresAt.toISOString(),
      customerId: session.customerId,
    };
  });
