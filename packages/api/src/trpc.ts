import {
  assertPermission,
  assertRole,
  bearerToken,
  findActiveMembership,
  type PermissionGroup,
  resolveMerchantUser,
} from '@commerce/auth';
import { AppError, secretsEqual } from '@commerce/core';
import { readSessionCookie, sessionCookie, validateSessionToken } from '@commerce/customers';
import type { MembershipRole } from '@commerce/db';
import { rateLimitKey } from '@commerce/rate-limit';
import { initTRPC } from '@trpc/server';
import { type TRPC_ERROR_CODE_KEY, TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { ApiContext, CustomerIdentity } from './context.ts';
import { toAppError } from './errors.ts';
import { hostedAppOrigin } from './hosted-origin.ts';
import type { ApiMeta, RateLimitName } from './meta.ts';
import { writePurgeKeys } from './public-cache.ts';

/** The JSON-RPC key whose HTTP status is the contract code's (every status of the error table has one). */
const TRPC_KEY_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

const t = initTRPC
  .context<ApiContext>()
  .meta<ApiMeta>()
  .create({
    /**
     * /trpc says what REST says: the contract's code (`data.appCode`), its
     * message (generic for an unexpected fault, whose detail is only logged),
     * its `details` (validation issues), and a JSON-RPC code and `httpStatus`
     * that match the HTTP status, from which tRPC derives the response's.
     */
    errorFormatter({ shape, error }) {
      const { appError } = toAppError(error);
      const key = TRPC_KEY_BY_STATUS[appError.status] ?? 'INTERNAL_SERVER_ERROR';
      return {
        message: appError.message,
        code: TRPC_ERROR_CODES_BY_KEY[key],
        data: {
          code: key,
          httpStatus: appError.status,
          ...(shape.data.path === undefined ? {} : { path: shape.data.path }),
          appCode: appError.code,
          ...(appError.details ? { details: appError.details } : {}),
        },
      };
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
    // Each signup may email its address: a few per ten minutes from one client, so no one can mail-bomb through it.
    'public-stock-notification': { name: 'public-stock-notification', points: 10, durationSeconds: 600 },
    // Legacy orders come from shoppers (or a storefront's server, one address for many shoppers): generous,
    // but a script cannot fill the order book or mail-bomb through the confirmation email.
    'public-order': { name: 'public-order', points: 60, durationSeconds: 600 },
    // A checkout is a handful of calls (create, a few reprices, bind, payment); a shopper retries some.
    // Generous per client (a storefront server is one address), while a script cannot hold stock hostage.
    'public-checkout': { name: 'public-checkout', points: 300, durationSeconds: 600 },
    // A hosted page asks once per opened link which store it belongs to; more is someone guessing tokens.
    'public-link-token': { name: 'public-link-token', points: 60, durationSeconds: 600 },
    // Availability searches cost by their size (days times resources), not one point each: see
    // `consumeRateLimitCost` and docs/bookings.md, "Abuse limits".
    'public-availability-search': {
      name: 'public-availability-search',
      points: ctx.config.rateLimit.availabilitySearchUnitsPerMinute,
      durationSeconds: 60,
    },
    // Each test email reaches a real inbox through the provider: a handful per ten minutes is plenty.
    'email-send-test': { name: 'email-send-test', points: 10, durationSeconds: 600 },
  }) satisfies Record<RateLimitName, unknown>;

/** The rules depend on the configuration only: built once per configuration, not per call. */
const rulesByConfig = new WeakMap<ApiContext['config'], ReturnType<typeof rateLimitRules>>();

/** Applies the rule a procedure names in its meta, keyed per tenant and client. */
async function consumeRateLimit(ctx: ApiContext, meta: ApiMeta | undefined): Promise<void> {
  if (!meta?.rateLimit) return;
  await consumeRateLimitCost(ctx, meta.rateLimit, 1);
}

/**
 * Consumes `points` of a named rule, keyed per tenant and client as every public limit: a
 * procedure whose work varies with its input (an availability search) pays its cost. Each call
 * of a `/trpc` batch runs its procedure, so a batch pays the sum of its calls.
 */
export async function consumeRateLimitCost(
  ctx: ApiContext,
  name: RateLimitName,
  points: number,
): Promise<void> {
  let rules = rulesByConfig.get(ctx.config);
  if (!rules) {
    rules = rateLimitRules(ctx);
    rulesByConfig.set(ctx.config, rules);
  }
  await ctx.services.rateLimiter.consume(
    rules[name],
    rateLimitKey([ctx.observed.tenant?.organizationId ?? '-', ctx.request.clientIp]),
    points,
  );
}

const rateLimited = t.middleware(async ({ ctx, meta, next }) => {
  await consumeRateLimit(ctx, meta);
  return next();
});

/**
 * The active organization of `x-organization-slug`: 400 TENANT_REQUIRED without one, 404 when
 * unknown. From the process's tenant directory (kept in memory, forgotten on every change), or the
 * lookup CORS already made for this request.
 */
async function resolveTenant(ctx: ApiContext) {
  const slug = tenantSlug(ctx);
  const known = ctx.request.tenant;
  const tenant = known?.slug === slug ? known : await ctx.services.tenants.bySlug(slug);
  if (!tenant) throw AppError.notFound('Organization not found');
  ctx.observed.tenant = tenant;
  return tenant;
}

function tenantSlug(ctx: ApiContext): string {
  const slug = ctx.request.headers.get('x-organization-slug')?.trim();
  if (!slug) throw new AppError('TENANT_REQUIRED');
  return slug;
}

const tenantResolved = t.middleware(async ({ ctx, next }) =>
  next({ ctx: { tenant: await resolveTenant(ctx) } }),
);

/**
 * `tenantResolved` then `rateLimited` as one middleware: every storefront
 * read passes here, and each middleware level costs tRPC a context merge.
 */
const tenantResolvedAndLimited = t.middleware(async ({ ctx, meta, next }) => {
  const tenant = await resolveTenant(ctx);
  await consumeRateLimit(ctx, meta);
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

/** The origin of a URL, or undefined when it is not one (a browser's `Origin: null`). */
function originOf(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const origin = new URL(value).origin;
  return origin === 'null' ? undefined : origin;
}

/**
 * A customer session from `Authorization: Bearer s1_…` (BYO backends) or the
 * `__Host-session` cookie (the hosted surface); a bearer header, when present,
 * is the credential and the cookie is ignored. A missing, malformed, unknown,
 * expired, revoked or other tenant's session is 401. A session that came by
 * cookie and was renewed gets its cookie again. Cookie-authenticated
 * mutations must come from an allowed origin (CSRF defence beside
 * SameSite=Lax): the tenant's `apiSettings.allowedOrigins` or the hosted
 * app's origin for the tenant (`hostedAppOrigin`, as CORS); otherwise 403. Bearer calls carry no ambient
 * credential, so they need no origin check.
 */
/** Whether a cookie-authenticated mutation comes from an origin the tenant allows (CSRF defence beside SameSite=Lax). */
async function isAllowedCookieOrigin(
  ctx: ApiContext,
  tenant: { organizationId: string; slug: string },
): Promise<boolean> {
  const origin = originOf(ctx.request.headers.get('origin') ?? '');
  // The origins read with the tenant this request resolved (every tenant procedure did).
  const resolved = ctx.observed.tenant;
  const snapshot =
    resolved?.organizationId === tenant.organizationId
      ? resolved
      : await ctx.services.tenants.bySlug(tenant.slug);
  const allowed = new Set([
    ...(snapshot?.allowedOrigins ?? []),
    hostedAppOrigin(ctx.config.hostedCheckoutUrl, tenant.slug),
  ]);
  return origin !== undefined && allowed.has(origin);
}

/**
 * The customer of a valid session of the tenant, on a public route a session
 * only personalizes (a booking hold is linked to its customer): the
 * credential is read as `customerAuthenticated` reads it, but a missing,
 * invalid or other tenant's session is a guest, never 401, and a cookie
 * session counts for a mutation only from an allowed origin (else a guest:
 * another site cannot attach holds to a signed-in shopper). The session is
 * not renewed here.
 */
export async function optionalCustomer(
  ctx: ApiContext,
  tenant: { organizationId: string; slug: string },
): Promise<CustomerIdentity | undefined> {
  const authorization = ctx.request.headers.get('authorization');
  const viaCookie = authorization === null;
  const token = viaCookie ? readSessionCookie(ctx.request.headers.get('cookie')) : bearerToken(authorization);
  if (!token) return undefined;
  const at = ctx.clock.now();
  const session = await validateSessionToken(ctx.db, { organizationId: tenant.organizationId, at }, token);
  if (!session) return undefined;
  if (viaCookie && !(await isAllowedCookieOrigin(ctx, tenant))) return undefined;
  ctx.observed.customerId = session.customer.id;
  return { ...session.customer, sessionId: session.sessionId };
}

const customerAuthenticated = t.middleware(async ({ ctx, type, next }) => {
  const tenant = ctx.observed.tenant;
  if (!tenant) throw new AppError('TENANT_REQUIRED');
  const authorization = ctx.request.headers.get('authorization');
  const viaCookie = authorization === null;
  const token = viaCookie ? readSessionCookie(ctx.request.headers.get('cookie')) : bearerToken(authorization);
  if (!token) throw new AppError('UNAUTHENTICATED', 'A customer session is required');
  const at = ctx.clock.now();
  const session = await validateSessionToken(ctx.db, { organizationId: tenant.organizationId, at }, token);
  if (!session) throw new AppError('UNAUTHENTICATED', 'The session is invalid or expired');

  if (viaCookie && type === 'mutation' && !(await isAllowedCookieOrigin(ctx, tenant))) {
    throw new AppError('FORBIDDEN', 'The request origin is not allowed for cookie-authenticated changes');
  }
  if (viaCookie && session.isRenewed) {
    ctx.resHeaders.append('Set-Cookie', sessionCookie(token, session.expiresAt, at));
  }
  ctx.observed.customerId = session.customer.id;
  const customer: CustomerIdentity = { ...session.customer, sessionId: session.sessionId };
  return next({ ctx: { customer } });
});

export const publicProcedure = t.procedure.meta({ auth: 'public' }).use(rateLimited);

export const tenantProcedure = t.procedure.meta({ auth: 'tenant' }).use(tenantResolvedAndLimited);

/**
 * `tenantProcedure` with how the store presents itself (`ctx.profile`: display name, logo,
 * website), which the tenant directory keeps with the tenant: for the storefront's organization read.
 */
export const tenantProfileProcedure = t.procedure
  .meta({ auth: 'tenant' })
  .use(async ({ ctx, meta, next }) => {
    const tenant = await resolveTenant(ctx);
    await consumeRateLimit(ctx, meta);
    return next({ ctx: { tenant, profile: tenant.profile } });
  });

/** A signed-in customer of the tenant: `ctx.tenant` and `ctx.customer` (see `customerAuthenticated`). */
export const customerProcedure = t.procedure
  .meta({ auth: 'customer' })
  .use(tenantResolved)
  .use(customerAuthenticated)
  .use(rateLimited);

export const merchantUserProcedure = t.procedure
  .meta({ auth: 'merchant-user' })
  .use(merchantAuthenticated)
  .use(rateLimited);

/**
 * `rateLimited`, then, for a write whose meta names what it `purges`, the purge of the public
 * answers it changed once it succeeded (its transaction has committed by then): the keys go to the
 * cache purger, not awaited, a failure logged (docs/api.md, "HTTP caching of public reads"). A
 * write that purges the whole tenant (its settings) also has this process forget the tenant at
 * once, so its own next read sees the change before the database's notice arrives.
 */
const rateLimitedAndPurging = t.middleware(async ({ ctx, meta, next, getRawInput }) => {
  await consumeRateLimit(ctx, meta);
  const result = await next();
  const scope = meta?.purges;
  const organizationId = ctx.observed.tenant?.organizationId;
  if (scope === 'tenant' && result.ok && organizationId !== undefined)
    ctx.services.tenants.forget(organizationId);
  const purger = ctx.services.cachePurger;
  if (!scope || !purger || !result.ok || organizationId === undefined) return result;
  const keys = writePurgeKeys(scope, organizationId, await getRawInput(), result.data);
  if (keys.length === 0) return result;
  purger.purge(keys).catch((error: unknown) => {
    ctx.services.logger?.error({ err: error, keys }, 'cache purge failed');
  });
  return result;
});

export const merchantProcedure = t.procedure
  .meta({ auth: 'merchant' })
  .use(tenantResolved)
  .use(merchantAuthenticated)
  .use(async ({ ctx, next }) => {
    const membership = await findActiveMembership(ctx.db, ctx.tenant.organizationId, ctx.merchantUser.id);
    if (!membership) throw new AppError('FORBIDDEN', 'You are not a member of this organization');
    return next({ ctx: { membership } });
  })
  .use(rateLimitedAndPurging);

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
