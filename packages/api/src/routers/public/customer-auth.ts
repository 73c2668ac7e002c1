import {
  customerSessionIssuedSchema,
  requestSignIn,
  requestSignInInputSchema,
  sessionCookie,
  signInRequestedSchema,
  verifyForm,
  verifySignIn,
  verifySignInInputSchema,
} from '@commerce/customers';
import { rateLimitKey } from '@commerce/rate-limit';
import type { ApiContext } from '../../context.ts';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { router, tenantProcedure } from '../../trpc.ts';

const TAGS = ['Customer: sign-in'];

/**
 * Sign-in limits (CONTRACT.md section 7), per tenant and client address and
 * per tenant and email, from configuration. The client is counted first, so
 * a client already refused does not spend the budget of the email it names.
 * Known and unknown emails are counted alike.
 */
export async function limitSignIn(
  ctx: ApiContext,
  organizationId: string,
  step: 'request' | 'verify',
  email: string | undefined,
): Promise<void> {
  const limits = ctx.config.rateLimit.signIn;
  const durationSeconds = limits.windowSeconds;
  const perClient = step === 'request' ? limits.requestsPerClient : limits.verifyPerClient;
  const perEmail = step === 'request' ? limits.requestsPerEmail : limits.verifyPerEmail;
  const limiter = ctx.services.rateLimiter;
  await limiter.consume(
    { name: `customer-sign-in-${step}-client`, points: perClient, durationSeconds },
    rateLimitKey([organizationId, ctx.request.clientIp]),
  );
  if (email !== undefined) {
    await limiter.consume(
      { name: `customer-sign-in-${step}-email`, points: perEmail, durationSeconds },
      rateLimitKey([organizationId, email.toLowerCase()]),
    );
  }
}

const challengeScope = (ctx: ApiContext, organizationId: string) => ({
  organizationId,
  at: ctx.clock.now(),
  email: customerEmailConfig(ctx),
});

const NEUTRAL = [
  'Always `200 { accepted: true }`: the same body, headers and work whether or not the email belongs to a customer (the first verification creates the customer). The email is queued through the outbox as `CUSTOMER_AUTH`.',
  'Rate-limited per tenant and client address (`RATE_LIMIT_SIGN_IN_REQUESTS_PER_CLIENT`, default 30) and per tenant and email (`RATE_LIMIT_SIGN_IN_REQUESTS_PER_EMAIL`, default 5) per `RATE_LIMIT_SIGN_IN_WINDOW_SECONDS` (default 900): `429 RATE_LIMIT_EXCEEDED` with `Retry-After`, for known and unknown emails alike.',
].join('\n\n');

export const publicCustomerAuthRouter = router({
  requestLink: tenantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/customer/auth/request-link',
        tags: TAGS,
        summary: 'Email a sign-in link with a fallback code',
        description: [
          'Body `{ email }`. Emails `{HOSTED_CHECKOUT_URL}/account/verify?token=l1_…` and a 6-digit fallback code; both work once, for 15 minutes, and either signs in through `POST /public/customer/auth/verify`.',
          NEUTRAL,
        ].join('\n\n'),
      },
      errors: ['RATE_LIMIT_EXCEEDED'],
    })
    .input(requestSignInInputSchema)
    .output(signInRequestedSchema)
    .mutation(async ({ ctx, input }) => {
      await limitSignIn(ctx, ctx.tenant.organizationId, 'request', input.email);
      return requestSignIn(ctx.db, challengeScope(ctx, ctx.tenant.organizationId), input, 'LINK');
    }),

  requestOtp: tenantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/customer/auth/request-otp',
        tags: TAGS,
        summary: 'Email a one-time sign-in code',
        description: [
          'Body `{ email }`. Emails a 6-digit code that works once, for 15 minutes; 5 wrong attempts void it. Verify with `POST /public/customer/auth/verify` and `{ email, code }`.',
          NEUTRAL,
        ].join('\n\n'),
      },
      errors: ['RATE_LIMIT_EXCEEDED'],
    })
    .input(requestSignInInputSchema)
    .output(signInRequestedSchema)
    .mutation(async ({ ctx, input }) => {
      await limitSignIn(ctx, ctx.tenant.organizationId, 'request', input.email);
      return requestSignIn(ctx.db, challengeScope(ctx, ctx.tenant.organizationId), input, 'CODE');
    }),

  verify: tenantProcedure
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
    }),
});
