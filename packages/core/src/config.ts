import { z } from 'zod';
import { ORGANIZATION_SLUG_PATTERN } from './organization-slug.ts';

/**
 * Process configuration (docs/operations.md "Configuration"), parsed once at start. A bad
 * value stops the process with a message naming the variable.
 */
const DEV_JWT_SECRET = 'dev-only-merchant-jwt-secret-change-me-0123456789';
const DEV_WEBHOOK_SECRET = 'whsec_dev_only_change_me';
const DEV_WEBHOOK_SIGNING_KEY = 'dev-only-outbound-webhook-signing-key-change-me-0123456789';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));
const optionalUrl = optionalString.pipe(z.url().optional());

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const proxyAddressSchema = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);
/** A TRUST_PROXY list entry: an address, a CIDR, or one of proxy-addr's range names. */
const isProxyAddress = (entry: string) =>
  PROXY_RANGE_NAMES.has(entry) || proxyAddressSchema.safeParse(entry).success;

const truthy = (value: string | undefined, fallback: boolean) =>
  value === undefined ? fallback : value === 'true' || value === '1';

const defaultHost = (nodeEnv: string) => (nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1');

/** Whether a bind address takes connections from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' ||
    bare === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)
  );
}

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    // Unset: every interface in production, loopback otherwise (where the development secret is accepted).
    HOST: optionalString,
    DATABASE_URL: optionalUrl,
    DATA_DIR: z.string().default('./.data'),
    DATABASE_POOL_SIZE: positiveInt(10),
    // Unset: the gateway's own hosted app on the port it listens on (see loadConfig).
    HOSTED_CHECKOUT_URL: optionalUrl,
    ADMIN_APP_ORIGIN: optionalString.pipe(
      z
        .url({ protocol: /^https?$/ })
        .transform((value) => new URL(value).origin)
        .optional(),
    ),
    MERCHANT_JWT_SECRET: optionalString,
    MERCHANT_JWKS_URL: optionalUrl,
    MERCHANT_JWT_ISSUER: z.string().min(1).default('https://id.commerce.test'),
    MERCHANT_JWT_AUDIENCE: z.string().min(1).default('commerce-api'),
    PLATFORM_ADMIN_TOKEN: optionalString.pipe(z.string().min(24).optional()),
    SMTP_URL: optionalUrl,
    EMAIL_FROM: z.string().default('Commerce <no-reply@commerce.test>'),
    // Unset: the sandbox outside production; production must name it (see the refinement below).
    PAYMENT_PROVIDER: optionalString.pipe(z.enum(['sandbox', 'stripe']).optional()),
    // The one setting under which a production process runs sandbox providers (a staging store).
    ALLOW_SANDBOX_IN_PRODUCTION: optionalString.pipe(z.enum(['true', 'false', '1', '0']).optional()),
    PAYMENT_WEBHOOK_SECRET: z.string().min(1).default(DEV_WEBHOOK_SECRET),
    STRIPE_SECRET_KEY: optionalString.pipe(
      z
        .string()
        .regex(
          /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/,
          'must be a Stripe secret or restricted key (sk_… or rk_…)',
        )
        .optional(),
    ),
    STRIPE_PUBLISHABLE_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^pk_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe publishable key (pk_…)')
        .optional(),
    ),
    STRIPE_ACCOUNT_ID: optionalString.pipe(
      z
        .string()
        .regex(/^acct_[A-Za-z0-9]+$/, 'must be a Stripe account id (acct_…)')
        .optional(),
    ),
    RATE_LIMIT_STORE: z
      .string()
      .default('memory')
      .refine((value) => value === 'memory' || value === 'postgres' || /^rediss?:\/\//.test(value), {
        message: 'must be memory, postgres or a redis:// URL',
      }),
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: positiveInt(600),
    // Availability search units (days searched times resources searched) per client and minute.
    RATE_LIMIT_AVAILABILITY_SEARCH_UNITS_PER_MINUTE: positiveInt(10_000),
    // Every per-client limit counts an IPv6 client by the network of this many leading bits.
    RATE_LIMIT_IPV6_PREFIX: z.coerce.number().int().min(16).max(128).default(64),
    RATE_LIMIT_SIGN_IN_REQUESTS_PER_EMAIL: positiveInt(5),
    RATE_LIMIT_SIGN_IN_REQUESTS_PER_CLIENT: positiveInt(30),
    RATE_LIMIT_SIGN_IN_VERIFY_PER_EMAIL: positiveInt(10),
    RATE_LIMIT_SIGN_IN_VERIFY_PER_CLIENT: positiveInt(30),
    RATE_LIMIT_SIGN_IN_WINDOW_SECONDS: positiveInt(900),
    // Booking emails a client's or the system's actions send one recipient of a store per hour.
    BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR: positiveInt(10),
    TAX_PROVIDER: z.enum(['none', 'sandbox']).default('none'),
    // Unset: the sandbox, except in production without ALLOW_SANDBOX_IN_PRODUCTION (then none).
    DISTANCE_PROVIDER: optionalString.pipe(z.enum(['sandbox', 'google']).optional()),
    DISTANCE_API_KEY: optionalString,
    DISTANCE_TIMEOUT_MS: positiveInt(3000),
    // Unset: the sandbox, except in production without ALLOW_SANDBOX_IN_PRODUCTION (then none).
    CARRIER_PROVIDER: optionalString.pipe(z.enum(['sandbox']).optional()),
    CARRIER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    SANDBOX_POSTAGE_BALANCE_IN_CENTS: z.coerce.number().int().min(0).max(1_000_000_000).default(10_000),
    CHECKOUT_SESSION_TTL_MINUTES: positiveInt(60),
    ABANDONED_CART_DELAY_MINUTES: positiveInt(60),
    // At least 5 minutes, so a shopper inside a 3-D Secure challenge is not cut off; at most a day,
    // the longest Stripe's own Checkout keeps a session open.
    CHECKOUT_PAYMENT_TIMEOUT_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
    // A bound session's stock, from its first bind whatever the rebinds (Shopify and Medusa hold 10-15 minutes).
    CHECKOUT_HOLD_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
    CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: positiveInt(20),
    // The hold-expiry cadence of the bookings worker; payment windows, requests and pruning have their own.
    BOOKINGS_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
    MAX_BODY_BYTES: positiveInt(1_048_576),
    // Node's own defaults (60 s for headers, no cap on connections) let slow-header clients hold sockets.
    HTTP_HEADERS_TIMEOUT_MS: positiveInt(10_000),
    HTTP_REQUEST_TIMEOUT_MS: positiveInt(30_000),
    HTTP_MAX_CONNECTIONS: positiveInt(1024),
    // Room for an office NAT or a storefront's server behind one address, far below the total.
    HTTP_MAX_CONNECTIONS_PER_CLIENT: positiveInt(64),
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((value, ctx) => {
        const trimmed = value.trim();
        if (trimmed === 'false' || trimmed === '') return 0;
        if (trimmed === 'true') return 1;
        if (/^\d+$/.test(trimmed)) return Number(trimmed);
        const entries = trimmed.split(',').map((entry) => entry.trim());
        const bad = entries.filter((entry) => !isProxyAddress(entry));
        if (bad.length === 0) return entries;
        ctx.addIssue({
          code: 'custom',
          message: `must be true, false, a number of proxy hops or a list of proxy addresses/CIDRs (not ${bad.join(', ')})`,
        });
        return z.NEVER;
      }),
    // The server key outbound webhook secrets are derived from (docs/webhooks.md); unset in production: no webhooks.
    WEBHOOK_SIGNING_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    // Unset: true outside production (a receiver on this machine), false in production.
    WEBHOOK_ALLOW_PRIVATE_HOSTS: optionalString.pipe(z.enum(['true', 'false', '1', '0']).optional()),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SEED_DEMO: optionalString.pipe(z.enum(['true', 'false', '1', '0']).optional()),
    RUN_WORKER: optionalString.pipe(z.enum(['true', 'false', '1', '0']).optional()),
    WORKER_POLL_MS: positiveInt(1000),
    // Deliveries in flight per worker process, and the SMTP connections it pools.
    OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(10),
    SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
    // Whether each gateway keeps its tenants in memory, forgotten on the database's change notices.
    TENANT_CACHE_ENABLED: optionalString.pipe(z.enum(['true', 'false', '1', '0']).optional()),
    // Public catalog, collection, page and booking-service reads: ETag/304 and a CDN's Cache-Control.
    PUBLIC_CACHE_ENABLED: optionalString.pipe(z.enum(['true', 'false', '1', '0']).optional()),
    // Whether those reads tell shared caches (a CDN) they may serve them without asking: only once the
    // CDN's cache key includes x-organization-slug, else one shop's catalog reaches another's shoppers.
    PUBLIC_CACHE_SHARED: optionalString.pipe(z.enum(['true', 'false', '1', '0']).optional()),
    // How long a shared cache may serve a read without asking again (PUBLIC_CACHE_SHARED only).
    PUBLIC_CACHE_S_MAXAGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    // How long past that a shared cache may serve the stale copy while it revalidates in the background.
    PUBLIC_CACHE_STALE_WHILE_REVALIDATE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(30),
    // Organization slugs whose public reads are never cacheable (comma-separated).
    PUBLIC_CACHE_DISABLED_TENANTS: z
      .string()
      .default('')
      .transform((value, ctx) => {
        const slugs = value
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== '');
        const bad = slugs.filter((slug) => !ORGANIZATION_SLUG_PATTERN.test(slug));
        if (bad.length === 0) return [...new Set(slugs)];
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of organization slugs (not ${bad.join(', ')})`,
        });
        return z.NEVER;
      }),
  })
  .superRefine((env, ctx) => {
    if (
      env.NODE_ENV === 'production' &&
      (env.MERCHANT_JWT_SECRET ?? DEV_JWT_SECRET) === DEV_JWT_SECRET &&
      !env.MERCHANT_JWKS_URL
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['MERCHANT_JWT_SECRET'],
        message:
          'production needs MERCHANT_JWKS_URL or a MERCHANT_JWT_SECRET other than the development value',
      });
    }
    if (env.NODE_ENV === 'production' && env.MERCHANT_JWT_SECRET === DEV_JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['MERCHANT_JWT_SECRET'],
        message: 'the development secret is refused in production',
      });
    }
    // The development secret is in the source: whoever reaches the server could sign a merchant token.
    const host = env.HOST ?? defaultHost(env.NODE_ENV);
    if (
      env.NODE_ENV !== 'production' &&
      !env.MERCHANT_JWKS_URL &&
      (env.MERCHANT_JWT_SECRET ?? DEV_JWT_SECRET) === DEV_JWT_SECRET &&
      !isLoopbackHost(host)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['MERCHANT_JWT_SECRET'],
        message: `the development secret is accepted only while the server listens on loopback (HOST is ${host}); set HOST=127.0.0.1, or a MERCHANT_JWT_SECRET of your own, or MERCHANT_JWKS_URL`,
      });
    }
    // The development transport keeps whole messages (sign-in links and codes) in the database.
    if (env.NODE_ENV === 'production' && !env.SMTP_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'is required in production (without it mail is only recorded in the database, never sent)',
      });
    }
    // Whoever knows the development secret could sign a "paid" event, whatever the provider.
    if (env.NODE_ENV === 'production' && env.PAYMENT_WEBHOOK_SECRET === DEV_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_WEBHOOK_SECRET'],
        message: 'the development webhook secret is refused in production',
      });
    }
    // Outside production too: whoever reaches the server could sign a "paid" event with it.
    if (
      env.NODE_ENV !== 'production' &&
      env.PAYMENT_WEBHOOK_SECRET === DEV_WEBHOOK_SECRET &&
      !isLoopbackHost(host)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_WEBHOOK_SECRET'],
        message: `the development webhook secret is accepted only while the server listens on loopback (HOST is ${host}); set HOST=127.0.0.1, or a PAYMENT_WEBHOOK_SECRET of your own`,
      });
    }
    // Sandbox providers take no real money, ship nothing and invent taxes and distances: a production
    // process runs them only when the operator says so for a staging store (docs/operations.md).
    const sandboxAllowed = env.NODE_ENV !== 'production' || truthy(env.ALLOW_SANDBOX_IN_PRODUCTION, false);
    if (env.NODE_ENV === 'production' && env.PAYMENT_PROVIDER === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_PROVIDER'],
        message:
          'is required in production: stripe (a staging store that takes no real money sets PAYMENT_PROVIDER=sandbox and ALLOW_SANDBOX_IN_PRODUCTION=true)',
      });
    }
    const sandboxChoices = [
      ['PAYMENT_PROVIDER', env.PAYMENT_PROVIDER],
      ['TAX_PROVIDER', env.TAX_PROVIDER],
      ['DISTANCE_PROVIDER', env.DISTANCE_PROVIDER],
      ['CARRIER_PROVIDER', env.CARRIER_PROVIDER],
    ] as const;
    for (const [name, value] of sandboxChoices) {
      if (value !== 'sandbox' || sandboxAllowed) continue;
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'sandbox is refused in production unless ALLOW_SANDBOX_IN_PRODUCTION=true (a staging store)',
      });
    }
    if (env.PAYMENT_PROVIDER === 'stripe') {
      for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'] as const) {
        if (env[name] === undefined) {
          ctx.addIssue({ code: 'custom', path: [name], message: 'is required when PAYMENT_PROVIDER=stripe' });
        }
      }
      // Stripe hands every endpoint its own `whsec_…` secret; the development value would let anyone sign events.
      if (env.PAYMENT_WEBHOOK_SECRET === DEV_WEBHOOK_SECRET) {
        ctx.addIssue({
          code: 'custom',
          path: ['PAYMENT_WEBHOOK_SECRET'],
          message: "PAYMENT_PROVIDER=stripe needs the endpoint's signing secret, not the development value",
        });
      }
      const secretMode = env.STRIPE_SECRET_KEY?.split('_')[1];
      const publishableMode = env.STRIPE_PUBLISHABLE_KEY?.split('_')[1];
      if (secretMode && publishableMode && secretMode !== publishableMode) {
        ctx.addIssue({
          code: 'custom',
          path: ['STRIPE_PUBLISHABLE_KEY'],
          message: `is a ${publishableMode} key but STRIPE_SECRET_KEY is a ${secretMode} key`,
        });
      }
    }
    if (env.DISTANCE_PROVIDER === 'google' && env.DISTANCE_API_KEY === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['DISTANCE_API_KEY'],
        message: 'is required when DISTANCE_PROVIDER=google',
      });
    }
    // Whoever knows the development key could sign deliveries to every merchant's endpoints.
    if (env.NODE_ENV === 'production' && env.WEBHOOK_SIGNING_KEY === DEV_WEBHOOK_SIGNING_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_SIGNING_KEY'],
        message: 'the development webhook signing key is refused in production',
      });
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not be longer than HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
      });
    }
    if (env.RATE_LIMIT_STORE === 'postgres' && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['RATE_LIMIT_STORE'],
        message: 'postgres needs DATABASE_URL (the embedded database is in-process)',
      });
    }
  });

export type RawConfig = z.infer<typeof configSchema>;

export interface Config {
  env: RawConfig['NODE_ENV'];
  port: number;
  host: string;
  database: { url: string | undefined; dataDir: string; poolSize: number };
  hostedCheckoutUrl: string;
  /** The merchant admin app's browser origin: the only one the merchant surface answers CORS for. */
  adminAppOrigin: string | undefined;
  merchantJwt: { secret: string | undefined; jwksUrl: string | undefined; issuer: string; audience: string };
  platformAdminToken: string | undefined;
  email: {
    smtpUrl: string | undefined;
    from: string;
    /** BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR: booking emails to one recipient of a store per hour (clients and the system). */
    bookingEmailsPerRecipientPerHour: number;
  };
  payments: {
    provider: 'sandbox' | 'stripe';
    webhookSecret: string;
    /** Set exactly when `provider` is `stripe`. */
    stripe: { secretKey: string; publishableKey: string; accountId: string | undefined } | undefined;
  };
  rateLimit: {
    store: string;
    publicReadsPerMinute: number;
    /** RATE_LIMIT_AVAILABILITY_SEARCH_UNITS_PER_MINUTE: search units (days times resources) per client and minute. */
    availabilitySearchUnitsPerMinute: number;
    /** Per-client limits key an IPv6 client on its network of this prefix length (a /64 by default). */
    ipv6Prefix: number;
    /** Customer sign-in: counts per tenant and email, and per tenant and client, per window. */
    signIn: {
      requestsPerEmail: number;
      requestsPerClient: number;
      verifyPerEmail: number;
      verifyPerClient: number;
      windowSeconds: number;
    };
  };
  /**
   * Checkout sessions: how long one lives (and holds its stock), the tax provider, abandoned-cart
   * reminders, and how long a session awaiting its payment keeps its stock before the worker cancels
   * the payment intent and releases it.
   */
  checkout: {
    sessionTtlMinutes: number;
    taxProvider: 'none' | 'sandbox';
    abandonedCartDelayMinutes: number;
    paymentTimeoutMinutes: number;
    /** How long a bound session holds its stock, counted from its first bind. */
    holdMinutes: number;
    /** The most units the sessions bound by one client address hold at once in one tenant. */
    maxHeldUnitsPerClient: number;
  };
  /**
   * Delivery distances of booking holds (docs/bookings.md "Hold delivery"): the provider, its key
   * (set exactly when `provider` is `google`) and how long one lookup may take before the hold is
   * refused with 503 BOOKING_DELIVERY_UNAVAILABLE.
   */
  distance: { provider: 'sandbox' | 'google' | 'none'; apiKey: string | undefined; timeoutMs: number };
  /**
   * Shipping labels (docs/fulfillment.md "Carrier"): the carrier, the deadline of one call, and
   * the balance a tenant's sandbox carrier account starts with at its first use.
   */
  carrier: { provider: 'sandbox' | 'none'; timeoutMs: number; sandboxStartingBalanceInCents: number };
  /**
   * The sandbox providers in use while `env` is `production` (only with ALLOW_SANDBOX_IN_PRODUCTION):
   * named in the start-up log, and every answer carries `x-sandbox` with them. Empty otherwise.
   */
  sandboxInProduction: Array<'payment' | 'tax' | 'distance' | 'carrier'>;
  /** The bookings worker (docs/bookings.md "Worker"): how often expired holds are swept. */
  bookings: { sweepIntervalMs: number };
  maxBodyBytes: number;
  /**
   * The HTTP server's limits: how long a client may take to send its headers, and its whole request
   * (responses, such as streamed exports, are not timed), and how many connections it may hold open.
   */
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    maxConnections: number;
    /** Connections one client address (an IPv6 client: its network) may hold open; newer ones are closed. */
    maxConnectionsPerClient: number;
  };
  /**
   * Which proxies' `X-Forwarded-For` entries to believe, as Express's `trust proxy`: a number of
   * hops counted from the socket (0: none, the socket's address is the client), or the addresses
   * and CIDRs of the proxies (the client is the first entry from the right outside them).
   */
  trustProxy: number | string[];
  /**
   * Outbound webhooks (docs/webhooks.md): the server key endpoint secrets are derived from (unset
   * in production without WEBHOOK_SIGNING_KEY: endpoints cannot be created and nothing is sent),
   * whether endpoint URLs may name loopback, private or link-local addresses, and whether they must
   * be https (production).
   */
  webhooks: { signingKey: string | undefined; allowPrivateHosts: boolean; requireHttps: boolean };
  logLevel: RawConfig['LOG_LEVEL'];
  /** Seed the demo organization at start (default: on for the embedded database). */
  seedDemo: boolean;
  /** Run the outbox worker inside the gateway process (default: on for the embedded database). */
  runWorkerInProcess: boolean;
  workerPollMs: number;
  /** Deliveries in flight per outbox worker, and the SMTP connections it pools. */
  outboxConcurrency: number;
  shutdownTimeoutMs: number;
  /**
   * Whether each gateway keeps the tenants it serves in memory, forgotten on the database's
   * `tenant_changed` notices (docs/database.md, "Tenant changes"). Off behind a connection pooler in
   * transaction mode, where `LISTEN` does not keep its connection.
   */
  tenantCacheEnabled: boolean;
  /**
   * HTTP caching of the public catalog, collection, page and booking-service reads (docs/api.md,
   * "HTTP caching of public reads"): whether those reads answer an ETag and surrogate keys at all;
   * whether a shared cache may serve them without revalidating (`shared`: only when the CDN's cache
   * key includes the tenant header), with the `s-maxage` and `stale-while-revalidate` it then may;
   * and the organizations (by slug) whose reads are never cacheable.
   */
  publicCache: {
    enabled: boolean;
    shared: boolean;
    sMaxAgeSeconds: number;
    staleWhileRevalidateSeconds: number;
    disabledTenants: string[];
  };
}

/**
 * HOSTED_CHECKOUT_URL when unset: the hosted app this gateway serves, on the port it listens on, so
 * the app's own origin is allowed for customer changes and emailed links reach it.
 */
export function defaultHostedCheckoutUrl(port: number): string {
  return `http://localhost:${port}/hosted/{orgSlug}`;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const embedded = raw.DATABASE_URL === undefined;
  const production = raw.NODE_ENV === 'production';
  // In production without the staging setting an unset distance or carrier provider is none: the
  // feature answers 503 rather than inventing distances or selling sandbox postage.
  const sandboxByDefault = !production || truthy(raw.ALLOW_SANDBOX_IN_PRODUCTION, false);
  const paymentProvider = raw.PAYMENT_PROVIDER ?? 'sandbox';
  const distanceProvider = raw.DISTANCE_PROVIDER ?? (sandboxByDefault ? 'sandbox' : 'none');
  const carrierProvider = raw.CARRIER_PROVIDER ?? (sandboxByDefault ? 'sandbox' : 'none');
  const sandboxInUse = [
    ...(paymentProvider === 'sandbox' ? (['payment'] as const) : []),
    ...(raw.TAX_PROVIDER === 'sandbox' ? (['tax'] as const) : []),
    ...(distanceProvider === 'sandbox' ? (['distance'] as const) : []),
    ...(carrierProvider === 'sandbox' ? (['carrier'] as const) : []),
  ];
  return {
    env: raw.NODE_ENV,
    port: raw.PORT,
    host: raw.HOST ?? defaultHost(raw.NODE_ENV),
    database: { url: raw.DATABASE_URL, dataDir: raw.DATA_DIR, poolSize: raw.DATABASE_POOL_SIZE },
    hostedCheckoutUrl: (raw.HOSTED_CHECKOUT_URL ?? defaultHostedCheckoutUrl(raw.PORT)).replace(/\/$/, ''),
    adminAppOrigin: raw.ADMIN_APP_ORIGIN,
    merchantJwt: {
      secret: raw.MERCHANT_JWKS_URL ? raw.MERCHANT_JWT_SECRET : (raw.MERCHANT_JWT_SECRET ?? DEV_JWT_SECRET),
      jwksUrl: raw.MERCHANT_JWKS_URL,
      issuer: raw.MERCHANT_JWT_ISSUER,
      audience: raw.MERCHANT_JWT_AUDIENCE,
    },
    platformAdminToken: raw.PLATFORM_ADMIN_TOKEN,
    email: {
      smtpUrl: raw.SMTP_URL,
      from: raw.EMAIL_FROM,
      bookingEmailsPerRecipientPerHour: raw.BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR,
    },
    payments: {
      provider: paymentProvider,
      webhookSecret: raw.PAYMENT_WEBHOOK_SECRET,
      stripe:
        raw.PAYMENT_PROVIDER === 'stripe' && raw.STRIPE_SECRET_KEY && raw.STRIPE_PUBLISHABLE_KEY
          ? {
              secretKey: raw.STRIPE_SECRET_KEY,
              publishableKey: raw.STRIPE_PUBLISHABLE_KEY,
              accountId: raw.STRIPE_ACCOUNT_ID,
            }
          : undefined,
    },
    rateLimit: {
      store: raw.RATE_LIMIT_STORE,
      publicReadsPerMinute: raw.RATE_LIMIT_PUBLIC_READS_PER_MINUTE,
      availabilitySearchUnitsPerMinute: raw.RATE_LIMIT_AVAILABILITY_SEARCH_UNITS_PER_MINUTE,
      ipv6Prefix: raw.RATE_LIMIT_IPV6_PREFIX,
      signIn: {
        requestsPerEmail: raw.RATE_LIMIT_SIGN_IN_REQUESTS_PER_EMAIL,
        requestsPerClient: raw.RATE_LIMIT_SIGN_IN_REQUESTS_PER_CLIENT,
        verifyPerEmail: raw.RATE_LIMIT_SIGN_IN_VERIFY_PER_EMAIL,
        verifyPerClient: raw.RATE_LIMIT_SIGN_IN_VERIFY_PER_CLIENT,
        windowSeconds: raw.RATE_LIMIT_SIGN_IN_WINDOW_SECONDS,
      },
    },
    checkout: {
      sessionTtlMinutes: raw.CHECKOUT_SESSION_TTL_MINUTES,
      taxProvider: raw.TAX_PROVIDER,
      abandonedCartDelayMinutes: raw.ABANDONED_CART_DELAY_MINUTES,
      paymentTimeoutMinutes: raw.CHECKOUT_PAYMENT_TIMEOUT_MINUTES,
      holdMinutes: raw.CHECKOUT_HOLD_MINUTES,
      maxHeldUnitsPerClient: raw.CHECKOUT_MAX_HELD_UNITS_PER_CLIENT,
    },
    distance: {
      provider: distanceProvider,
      apiKey: distanceProvider === 'google' ? raw.DISTANCE_API_KEY : undefined,
      timeoutMs: raw.DISTANCE_TIMEOUT_MS,
    },
    carrier: {
      provider: carrierProvider,
      timeoutMs: raw.CARRIER_TIMEOUT_MS,
      sandboxStartingBalanceInCents: raw.SANDBOX_POSTAGE_BALANCE_IN_CENTS,
    },
    sandboxInProduction: production ? sandboxInUse : [],
    bookings: { sweepIntervalMs: raw.BOOKINGS_SWEEP_INTERVAL_MS },
    maxBodyBytes: raw.MAX_BODY_BYTES,
    http: {
      headersTimeoutMs: raw.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: raw.HTTP_REQUEST_TIMEOUT_MS,
      maxConnections: raw.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerClient: raw.HTTP_MAX_CONNECTIONS_PER_CLIENT,
    },
    trustProxy: raw.TRUST_PROXY,
    webhooks: {
      signingKey: raw.WEBHOOK_SIGNING_KEY ?? (production ? undefined : DEV_WEBHOOK_SIGNING_KEY),
      allowPrivateHosts: truthy(raw.WEBHOOK_ALLOW_PRIVATE_HOSTS, !production),
      requireHttps: production,
    },
    logLevel: raw.LOG_LEVEL,
    seedDemo: truthy(raw.SEED_DEMO, embedded),
    runWorkerInProcess: truthy(raw.RUN_WORKER, embedded),
    workerPollMs: raw.WORKER_POLL_MS,
    outboxConcurrency: raw.OUTBOX_CONCURRENCY,
    shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS,
    tenantCacheEnabled: truthy(raw.TENANT_CACHE_ENABLED, true),
    publicCache: {
      enabled: truthy(raw.PUBLIC_CACHE_ENABLED, true),
      shared: truthy(raw.PUBLIC_CACHE_SHARED, false),
      sMaxAgeSeconds: raw.PUBLIC_CACHE_S_MAXAGE_SECONDS,
      staleWhileRevalidateSeconds: raw.PUBLIC_CACHE_STALE_WHILE_REVALIDATE_SECONDS,
      disabledTenants: raw.PUBLIC_CACHE_DISABLED_TENANTS,
    },
  };
}

/** The development webhook signing secret (sandbox payments); refused with PAYMENT_PROVIDER=stripe. */
export const DEVELOPMENT_WEBHOOK_SECRET = DEV_WEBHOOK_SECRET;

/** The development signing secret, for `pnpm dev:token` and tests. Refused in production. */
export const DEVELOPMENT_JWT_SECRET = DEV_JWT_SECRET;
