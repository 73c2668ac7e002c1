import { findTenantWithOriginsBySlug } from '@commerce/admin';
import { type ApiDeps, hostedAppOrigin, httpOrigin } from '@commerce/api';
import type { Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import type { GatewayEnv } from './env.ts';

/** Request headers a browser may send cross-origin (CONTRACT.md sections 2, 5, 7 and 12). */
export const CORS_ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'x-organization-slug',
  'x-idempotency-key',
  'idempotency-key',
];
/** Response headers a browser script may read. */
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'Retry-After', 'idempotent-replayed'];
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for the three tenant surfaces, with Hono's `cors`.
 *
 * - Public and customer (`/api/v1/public/*`, `/api/v1/customer/*`): a request is answered for its
 *   `Origin` when that is one of the tenant's `apiSettings.allowedOrigins` or the hosted app's origin.
 *   The tenant is looked up with its origins in one query, only when the request carries `Origin`,
 *   and the procedure reuses it, so a cross-origin call costs no query more than a same-origin one.
 *   The customer surface allows credentials (its session cookie); the public one does not.
 * - Preflights carry no `x-organization-slug` (a browser sends only the names of the headers to
 *   come), so no tenant can be known: a preflight from any http(s) origin is answered with the
 *   methods and headers above. It grants nothing by itself: the browser lets a script read the
 *   real answer only if that answer names its origin, and cookie-authenticated changes are refused
 *   from an origin the tenant does not allow (403, in the customer procedures).
 * - Merchant (`/api/v1/merchant/*`): only ADMIN_APP_ORIGIN, preflights included; without it the
 *   merchant surface answers no cross-origin request. Its credential is a bearer token, so no
 *   credentials mode.
 * - Everything else (platform, webhooks, /trpc, docs) sends no CORS headers.
 */
export function mountCors(app: Hono<GatewayEnv>, deps: Pick<ApiDeps, 'db' | 'config'>): void {
  const { config } = deps;

  const storefrontOrigin = async (origin: string, c: Context<GatewayEnv>) => {
    const requested = httpOrigin(origin);
    if (!requested || requested !== origin) return null;
    if (c.req.method === 'OPTIONS') return origin;
    const slug = c.req.header('x-organization-slug')?.trim();
    const tenant = slug ? await findTenantWithOriginsBySlug(deps.db, slug) : undefined;
    if (tenant) c.set('tenant', tenant);
    const allowed =
      tenant?.allowedOrigins.includes(origin) ||
      hostedAppOrigin(config.hostedCheckoutUrl, tenant?.slug) === origin;
    return allowed ? origin : null;
  };
  const storefront = {
    allowMethods: ALLOWED_METHODS,
    allowHeaders: CORS_ALLOWED_HEADERS,
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  };
  app.use('/api/v1/public/*', cors({ ...storefront, origin: storefrontOrigin }));
  app.use('/api/v1/customer/*', cors({ ...storefront, origin: storefrontOrigin, credentials: true }));

  const adminOrigin = config.adminAppOrigin;
  app.use(
    '/api/v1/merchant/*',
    cors({
      ...storefront,
      origin: (origin) => (adminOrigin !== undefined && origin === adminOrigin ? origin : null),
    }),
  );
}
