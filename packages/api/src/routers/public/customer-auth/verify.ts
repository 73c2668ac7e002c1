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
        'Body `{ token }` (the `token` of the emailed link) or `{ email, code }`. Success: `200 { sessionToken, expiresAt, customerId }` and `Set-Cookie: __Host-session=<token>; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=2592000; Expires=…`. The session lives 30 days and is renewed on use when less than 15 days remain. The first verification of an email creates the customer; verifying an email change (see `PATCH /customer/account/profile`) moves the customer to the new email.',
        'Every failure (malformed, unknown, used or expired token or code, a wrong code, a code voided by 5 wrong attempts, another store’s token) is the one neutral `401 VERIFICATION_FAILED`. A code or link works once; signing in uses up the email’s other outstanding codes and links.',
        'Rate-limited per tenant and client address (`RATE_LIMIT_SIGN_IN_VERIFY_PER_CLIENT`, default 30) and, for `{ email, code }`, per tenant and email (`RATE_LIMIT_SIGN_IN_VERIFY_PER_EMAIL`, default 10) per window: with 5 attempts per code and 10 per 15 minutes per email, guessing a 6-digit code is infeasible.',
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
      // cookie: its page script never receives the token (issue 16). BYO servers get it over REST.
      ...(ctx.request.surface === 'rest' ? { sessionToken: session.token } : {}),
      expiresAt: session.expiresAt.toISOString(),
      customerId: session.customerId,
    };
  });
