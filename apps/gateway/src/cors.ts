import { type ApiDeps, hostedAppOrigin, httpOrigin } from '@commerce/api';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { GatewayEnv } from './env.ts';
import { addVary } from './response-headers.ts';

/**
 * Request headers a browser may send cross-origin: credentials, the tenant
 * header and idempotency keys (docs/security.md "CORS").
 */
export const CORS_ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'x-organization-slug',
  'x-idempotency-key',
  'idempotency-key',
  // A storefront script revalidating a public read itself (the browser's own cache needs no leave).
  'if-none-match',
];
/** Response headers a browser script may read. */
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'Retry-After', 'idempotent-replayed', 'ETag'];
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** What a CORS policy answers for one request's `Origin`: the origin to name, or null. */
type OriginPolicy = (origin: string, c: Context<GatewayEnv>) => string | null | Promise<string | null>;

const ALLOWED_METHODS_VALUE = ALLOWED_METHODS.join(',');
const ALLOWED_HEADERS_VALUE = CORS_ALLOWED_HEADERS.join(',');
const EXPOSED_HEADERS_VALUE = CORS_EXPOSED_HEADERS.join(',');

/**
 * The CORS headers Hono's `cors` sends, set where they cost nothing: a preflight is answered
 * here, and every other answer gets them through the request's header record.
 * Hono's `cors` writes into `c.res` before the route runs and calls `c.header()` after it, and
 * either makes Hono copy the route's response through a Fetch `Response` whose body is a stream,
 * which takes @hono/node-server off its fast path (a string body written with its headers in one
 * go) for every answer of these surfaces, cross-origin or not (docs/performance.md, "Regression
 * fixed").
 */
function corsFor(policy: OriginPolicy, credentials: boolean): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const requestOrigin = c.req.header('origin');
    // Without Origin no policy can name one (Hono's `cors` asks it about '', which none allows).
    const allowOrigin = requestOrigin ? await policy(requestOrigin, c) : null;
    if (c.req.method === 'OPTIONS') {
      const headers = new Headers();
      if (allowOrigin) headers.set('Access-Control-Allow-Origin', allowOrigin);
      if (credentials) headers.set('Access-Control-Allow-Credentials', 'true');
      headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS_VALUE);
      headers.append('Vary', 'Origin');
      headers.set('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
      headers.set('Access-Control-Allow-Methods', ALLOWED_METHODS_VALUE);
      headers.set('Access-Control-Allow-Headers', ALLOWED_HEADERS_VALUE);
      headers.append('Vary', 'Access-Control-Request-Headers');
      return new Response(null, { status: 204, statusText: 'No Content', headers });
    }
    // Into the request's header record, which every answer gets (response-headers.ts).
    const record = c.get('responseHeaders');
    if (allowOrigin) record['access-control-allow-origin'] = allowOrigin;
    if (credentials) record['access-control-allow-credentials'] = 'true';
    record['access-control-expose-headers'] = EXPOSED_HEADERS_VALUE;
    addVary(record, 'Origin');
    await next();
  };
}

/**
 * CORS for the three tenant surfaces, with the semantics of Hono's `cors` (see `corsFor`).
 *
 * - Public and customer (`/api/v1/public/*`, `/api/v1/customer/*`): a request is answered for its
 *   `Origin` when that is one of the tenant's `apiSettings.allowedOrigins` or the hosted app's origin.
 *   The tenant comes from the tenant directory (kept in memory), only when the request carries
 *   `Origin`, and the procedure reuses it, so a cross-origin call costs nothing more than a
 *   same-origin one.
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
export function mountCors(app: Hono<GatewayEnv>, deps: Pick<ApiDeps, 'tenants' | 'config'>): void {
  const { config } = deps;

  const storefrontOrigin = async (origin: string, c: Context<GatewayEnv>) => {
    const requested = httpOrigin(origin);
    if (!requested || requested !== origin) return null;
    if (c.req.method === 'OPTIONS') return origin;
    const slug = c.req.header('x-organization-slug')?.trim();
    const tenant = slug ? await deps.tenants.bySlug(slug) : undefined;
    if (tenant) c.set('tenant', tenant);
    const allowed =
      tenant?.allowedOrigins.includes(origin) ||
      hostedAppOrigin(config.hostedCheckoutUrl, tenant?.slug) === origin;
    return allowed ? origin : null;
  };
  app.use('/api/v1/public/*', corsFor(storefrontOrigin, false));
  app.use('/api/v1/customer/*', corsFor(storefrontOrigin, true));

  const adminOrigin = config.adminAppOrigin;
  app.use(
    '/api/v1/merchant/*',
    corsFor((origin) => (adminOrigin !== undefined && origin === adminOrigin ? origin : null), false),
  );
}
