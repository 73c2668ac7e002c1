import { findTenantBySlug } from '@commerce/admin';
import {
  assertPermission,
  assertRole,
  bearerToken,
  findActiveMembership,
  type PermissionGroup,
  resolveMerchantUser,
} from '@commerce/auth';
import { AppError, secretsEqual } from '@commerce/core';
import type { MembershipRole } from '@commerce/db';
import { rateLimitKey } from '@commerce/rate-limit';
import { initTRPC } from '@trpc/server';
import type { ApiContext } from './context.ts';
import type { ApiMeta, RateLimitName } from './meta.ts';

const t = initTRPC
  .context<ApiContext>()
  .meta<ApiMeta>()
  .create({
    errorFormatter({ shape, error }) {
      // First-party tRPC clients branch on the same stable code as REST clients.
      const cause = error.cause;
      const code = cause instanceof AppError ? cause.code : undefined;
      return { ...shape, data: { ...shape.data, stack: undefined, appCode: code } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

const rateLimitRules = (ctx: ApiContext) =>
  ({
    'public-read': {
      name: 'public-read',
      points: ctx.config.rateLimit.publicReadsPerMinute,
      durationSeconds: 60,
    },
    // A shopper writes a review now and then; a stream of them from one client is spam.
    'public-review': { name: 'public-review', points: 10, durationSeconds: 3600 },
    // Signup requests come from people, a few at a time; more from one client is a script.
    'public-signup': { name: 'public-signup', points: 5, durationSeconds: 600 },
    // Each test email reaches a real inbox through the provider: a handful per ten minutes is plenty.
    'email-send-test': { name: 'email-send-test', points: 10, durationSeconds: 600 },
  }) satisfies Record<RateLimitName, unknown>;

/** Applies the rule a procedure names in its meta, keyed per tenant and client. */
const rateLimited = t.middleware(async ({ ctx, meta, next }) => {
  if (meta?.rateLimit) {
    const rule = rateLimitRules(ctx)[meta.rateLimit];
    await ctx.services.rateLimiter.consume(
      rule,
      rateLimitKey([ctx.observed.tenant?.organizationId ?? '-', ctx.request.clientIp]),
    );
  }
  return next();
});

const tenantResolved = t.middleware(async ({ ctx, next }) => {
  const slug = ctx.request.headers.get('x-organization-slug')?.trim();
  if (!slug) throw new AppError('TENANT_REQUIRED');
  const tenant = await findTenantBySlug(ctx.db, slug);
  if (!tenant) throw AppError.notFound('Organization not found');
  ctx.observed.tenant = tenant;
  return next({ ctx: { tenant } });
});

const merchantAuthenticated = t.middleware(async ({ ctx, next }) => {
  const token = bearerToken(ctx.request.headers.get('authorization'));
  if (!token) throw new AppError('UNAUTHENTICATED', 'A bearer token is required');
  const claims = await ctx.services.merchantTokens.verify(token);
  const user = await resolveMerchantUser(ctx.db, claims, ctx.clock.now());
  ctx.observed.userId = user.id;
  return next({ ctx: { merchantUser: user } });
});

const platformAuthenticated = t.middleware(async ({ ctx, next }) => {
  const expected = ctx.config.platformAdminToken;
  // Without an operator token the platform surface does not exist.
  if (!expected) throw AppError.notFound('Not found');
  const token = bearerToken(ctx.request.headers.get('authorization'));
  if (!token || !secretsEqual(token, expected))
    throw new AppError('UNAUTHENTICATED', 'A valid platform token is required');
  return next();
});

export const publicProcedure = t.procedure.meta({ auth: 'public' }).use(rateLimited);

export const tenantProcedure = t.procedure.meta({ auth: 'tenant' }).use(tenantResolved).use(rateLimited);

export const merchantUserProcedure = t.procedure
  .meta({ auth: 'merchant-user' })
  .use(merchantAuthenticated)
  .use(rateLimited);

export const merchantProcedure = t.procedure
  .meta({ auth: 'merchant' })
  .use(tenantResolved)
  .use(merchantAuthenticated)
  .use(async ({ ctx, next }) => {
    const membership = await findActiveMembership(ctx.db, ctx.tenant.organizationId, ctx.merchantUser.id);
    if (!membership) throw new AppError('FORBIDDEN', 'You are not a member of this organization');
    return next({ ctx: { membership } });
  })
  .use(rateLimited);

/** A merchant procedure that needs a permission group (Owner and Admin hold every group). */
export function merchantProcedureWith(permission: PermissionGroup) {
  return merchantProcedure.meta({ permission }).use(({ ctx, next }) => {
    assertPermission(ctx.membership, permission);
    return next();
  });
}

/** A merchant procedure reserved to some roles. */
export function merchantProcedureFor(...roles: MembershipRole[]) {
  return merchantProcedure.meta({ roles }).use(({ ctx, next }) => {
    assertRole(ctx.membership, roles);
    return next();
  });
}

export const platformProcedure = t.procedure
  .meta({ auth: 'platform' })
  .use(platformAuthenticated)
  .use(rateLimited);
