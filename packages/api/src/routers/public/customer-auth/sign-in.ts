import { rateLimitKey } from '@commerce/rate-limit';
import type { ApiContext } from '../../../context.ts';

/**
 * Sign-in limits, per tenant and client address and
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
