import { describe, expect, it } from 'vitest';
import { ConfigError, DEVELOPMENT_JWT_SECRET, DEVELOPMENT_WEBHOOK_SECRET, loadConfig } from './config.ts';

const POSTGRES_URL = 'postgres://app:secret@db.internal:5432/commerce';
const PRODUCTION_SECRET = 'a-production-secret-that-is-not-the-development-one';
const PRODUCTION_WEBHOOK_SECRET = 'whsec_production_0123456789abcdef';
const SMTP = 'smtp://mail.internal:587';
const STRIPE = {
  PAYMENT_PROVIDER: 'stripe',
  PAYMENT_WEBHOOK_SECRET: 'whsec_endpoint0123456789',
  STRIPE_SECRET_KEY: 'sk_test_51Abc0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_51Abc0123456789',
};

function configErrorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig defaults', () => {
  it('gives the contract defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database.url).toBeUndefined();
    expect(config.database.dataDir).toBe('./.data');
    expect(config.hostedCheckoutUrl).toBe('http://localhost:3000/hosted/{orgSlug}');
    expect(config.payments.provider).toBe('sandbox');
    expect(config.rateLimit.store).toBe('memory');
    expect(config.maxBodyBytes).toBe(1_048_576);
    expect(config.env).toBe('development');
    expect(config.platformAdminToken).toBeUndefined();
    expect(config.email.smtpUrl).toBeUndefined();
    expect(config.payments.webhookSecret).toBe(DEVELOPMENT_WEBHOOK_SECRET);
    expect(config.payments.stripe).toBeUndefined();
    expect(config.checkout.paymentTimeoutMinutes).toBe(60);
    expect(config.checkout.holdMinutes).toBe(15);
    expect(config.checkout.maxHeldUnitsPerClient).toBe(20);
  });

  it('defaults HOSTED_CHECKOUT_URL to the hosted app on the port the gateway listens on', () => {
    const config = loadConfig({ PORT: '45321' });
    expect(config.port).toBe(45321);
    expect(config.hostedCheckoutUrl).toBe('http://localhost:45321/hosted/{orgSlug}');
    expect(loadConfig({ PORT: '45321', HOSTED_CHECKOUT_URL: '' }).hostedCheckoutUrl).toBe(
      'http://localhost:45321/hosted/{orgSlug}',
    );
  });

  it('lets a set HOSTED_CHECKOUT_URL win over PORT', () => {
    const config = loadConfig({ PORT: '45321', HOSTED_CHECKOUT_URL: 'https://shop.example.com/{orgSlug}/' });
    expect(config.hostedCheckoutUrl).toBe('https://shop.example.com/{orgSlug}');
  });

  it('seeds the demo and runs the worker in process on the embedded database', () => {
    const config = loadConfig({});
    expect(config.seedDemo).toBe(true);
    expect(config.runWorkerInProcess).toBe(true);
  });

  it('neither seeds nor runs the worker in process with DATABASE_URL', () => {
    const config = loadConfig({ DATABASE_URL: POSTGRES_URL });
    expect(config.database.url).toBe(POSTGRES_URL);
    expect(config.seedDemo).toBe(false);
    expect(config.runWorkerInProcess).toBe(false);
  });

  it('lets SEED_DEMO and RUN_WORKER override the engine default both ways', () => {
    const embedded = loadConfig({ SEED_DEMO: 'false', RUN_WORKER: '0' });
    expect(embedded.seedDemo).toBe(false);
    expect(embedded.runWorkerInProcess).toBe(false);
    const postgres = loadConfig({ DATABASE_URL: POSTGRES_URL, SEED_DEMO: 'true', RUN_WORKER: '1' });
    expect(postgres.seedDemo).toBe(true);
    expect(postgres.runWorkerInProcess).toBe(true);
  });

  it('treats an empty DATABASE_URL as unset', () => {
    const config = loadConfig({ DATABASE_URL: '' });
    expect(config.database.url).toBeUndefined();
    expect(config.seedDemo).toBe(true);
  });

  it('uses the development JWT secret outside production', () => {
    expect(loadConfig({}).merchantJwt.secret).toBe(DEVELOPMENT_JWT_SECRET);
  });

  it('reads explicit values', () => {
    const config = loadConfig({
      PORT: '8080',
      HOSTED_CHECKOUT_URL: 'https://shop.example.com/',
      ...STRIPE,
      MAX_BODY_BYTES: '2048',
      CHECKOUT_PAYMENT_TIMEOUT_MINUTES: '30',
      CHECKOUT_HOLD_MINUTES: '10',
      CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '5',
    });
    expect(config.port).toBe(8080);
    expect(config.hostedCheckoutUrl).toBe('https://shop.example.com');
    expect(config.payments.provider).toBe('stripe');
    expect(config.maxBodyBytes).toBe(2048);
    expect(config.checkout.paymentTimeoutMinutes).toBe(30);
    expect(config.checkout.holdMinutes).toBe(10);
    expect(config.checkout.maxHeldUnitsPerClient).toBe(5);
  });
});

describe('loadConfig refuses bad values, naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['RATE_LIMIT_STORE', 'mysql'],
    ['MAX_BODY_BYTES', '-1'],
    ['MAX_BODY_BYTES', '0'],
    ['DATABASE_URL', 'not-a-url'],
    ['PAYMENT_PROVIDER', 'paypal'],
    ['NODE_ENV', 'staging'],
    ['CHECKOUT_PAYMENT_TIMEOUT_MINUTES', '4'],
    ['CHECKOUT_HOLD_MINUTES', '0'],
    ['CHECKOUT_MAX_HELD_UNITS_PER_CLIENT', '0'],
    ['CHECKOUT_PAYMENT_TIMEOUT_MINUTES', '1441'],
    ['CHECKOUT_PAYMENT_TIMEOUT_MINUTES', '1.5'],
  ])('%s=%s', (variable, value) => {
    const error = configErrorOf({ [variable]: value });
    expect(error.name).toBe('ConfigError');
    expect(error.message).toContain(variable);
  });

  it('refuses production without MERCHANT_JWKS_URL or MERCHANT_JWT_SECRET', () => {
    const error = configErrorOf({ NODE_ENV: 'production', DATABASE_URL: POSTGRES_URL });
    expect(error.message).toContain('MERCHANT_JWT_SECRET');
  });

  it('refuses production with the development secret', () => {
    const error = configErrorOf({
      NODE_ENV: 'production',
      DATABASE_URL: POSTGRES_URL,
      MERCHANT_JWT_SECRET: DEVELOPMENT_JWT_SECRET,
    });
    expect(error.message).toContain('MERCHANT_JWT_SECRET');
  });

  it('refuses production with the development secret even beside a JWKS URL', () => {
    const error = configErrorOf({
      NODE_ENV: 'production',
      MERCHANT_JWKS_URL: 'https://id.example.com/.well-known/jwks.json',
      MERCHANT_JWT_SECRET: DEVELOPMENT_JWT_SECRET,
    });
    expect(error.message).toContain('MERCHANT_JWT_SECRET');
  });

  it('accepts production with a JWKS URL, and leaves no secret to fall back to', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      MERCHANT_JWKS_URL: 'https://id.example.com/.well-known/jwks.json',
      ...STRIPE,
      SMTP_URL: SMTP,
    });
    expect(config.env).toBe('production');
    expect(config.merchantJwt.jwksUrl).toBe('https://id.example.com/.well-known/jwks.json');
    expect(config.merchantJwt.secret).toBeUndefined();
  });

  it('accepts production with a secret of its own', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      MERCHANT_JWT_SECRET: PRODUCTION_SECRET,
      ...STRIPE,
      SMTP_URL: SMTP,
    });
    expect(config.merchantJwt.secret).toBe(PRODUCTION_SECRET);
  });

  it('refuses production with the development webhook secret, whatever the payment provider', () => {
    const error = configErrorOf({ NODE_ENV: 'production', MERCHANT_JWT_SECRET: PRODUCTION_SECRET });
    expect(error.message).toContain('PAYMENT_WEBHOOK_SECRET');
    expect(loadConfig({ MERCHANT_JWT_SECRET: PRODUCTION_SECRET }).payments.provider).toBe('sandbox');
  });

  it('refuses production without SMTP_URL', () => {
    const production = {
      NODE_ENV: 'production',
      MERCHANT_JWT_SECRET: PRODUCTION_SECRET,
      ...STRIPE,
    };
    expect(configErrorOf(production).message).toMatch(/SMTP_URL: is required in production/);
    expect(loadConfig({ ...production, SMTP_URL: SMTP }).email.smtpUrl).toBe(SMTP);
  });

  it('refuses the development secret on a HOST other than loopback, outside production too', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'example.com']) {
      const error = configErrorOf({ HOST });
      expect(error.message).toContain('MERCHANT_JWT_SECRET');
      expect(error.message).toContain(`HOST is ${HOST}`);
      expect(configErrorOf({ HOST, MERCHANT_JWT_SECRET: DEVELOPMENT_JWT_SECRET }).message).toContain(
        'MERCHANT_JWT_SECRET',
      );
    }
  });

  it('accepts the development secret on loopback, and any HOST with a secret or JWKS of its own', () => {
    for (const HOST of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]'])
      expect(loadConfig({ HOST }).merchantJwt.secret).toBe(DEVELOPMENT_JWT_SECRET);
    const webhook = { PAYMENT_WEBHOOK_SECRET: PRODUCTION_WEBHOOK_SECRET };
    expect(loadConfig({ HOST: '0.0.0.0', MERCHANT_JWT_SECRET: PRODUCTION_SECRET, ...webhook }).host).toBe(
      '0.0.0.0',
    );
    expect(
      loadConfig({
        HOST: '0.0.0.0',
        MERCHANT_JWKS_URL: 'https://id.example.com/.well-known/jwks.json',
        ...webhook,
      }).host,
    ).toBe('0.0.0.0');
  });

  it('refuses the development webhook secret on a HOST other than loopback, outside production too', () => {
    for (const NODE_ENV of ['development', 'test'])
      for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'example.com']) {
        // The merchant secret is the operator's own: only the webhook's is the development one.
        const own = { NODE_ENV, HOST, MERCHANT_JWT_SECRET: PRODUCTION_SECRET };
        for (const env of [own, { ...own, PAYMENT_WEBHOOK_SECRET: DEVELOPMENT_WEBHOOK_SECRET }]) {
          const error = configErrorOf(env);
          expect(error.message).toContain('PAYMENT_WEBHOOK_SECRET: the development webhook secret');
          expect(error.message).toContain(`HOST is ${HOST}`);
          expect(error.message).not.toContain('MERCHANT_JWT_SECRET');
        }
      }
  });

  it('accepts the development webhook secret on loopback, and any HOST with a webhook secret of its own', () => {
    for (const HOST of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]', undefined])
      expect(loadConfig({ HOST }).payments.webhookSecret).toBe(DEVELOPMENT_WEBHOOK_SECRET);
    const config = loadConfig({
      HOST: '0.0.0.0',
      MERCHANT_JWT_SECRET: PRODUCTION_SECRET,
      PAYMENT_WEBHOOK_SECRET: PRODUCTION_WEBHOOK_SECRET,
    });
    expect(config.host).toBe('0.0.0.0');
    expect(config.payments.webhookSecret).toBe(PRODUCTION_WEBHOOK_SECRET);
  });

  it('defaults HOST to loopback outside production and to every interface in production', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(
      loadConfig({
        NODE_ENV: 'production',
        MERCHANT_JWT_SECRET: PRODUCTION_SECRET,
        ...STRIPE,
        SMTP_URL: SMTP,
      }).host,
    ).toBe('0.0.0.0');
  });

  it('reads TRUST_PROXY as hops (true is one, false none) or a list of proxy addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('keeps tenants in memory unless TENANT_CACHE_ENABLED says not to', () => {
    expect(loadConfig({}).tenantCacheEnabled).toBe(true);
    expect(loadConfig({ TENANT_CACHE_ENABLED: 'false' }).tenantCacheEnabled).toBe(false);
    expect(loadConfig({ TENANT_CACHE_ENABLED: '0' }).tenantCacheEnabled).toBe(false);
    expect(() => loadConfig({ TENANT_CACHE_ENABLED: 'sometimes' })).toThrow(/TENANT_CACHE_ENABLED/);
  });

  it('reads the public-read caching settings: on, but not shareable without revalidation, by default', () => {
    expect(loadConfig({}).publicCache).toEqual({
      enabled: true,
      shared: false,
      sMaxAgeSeconds: 60,
      staleWhileRevalidateSeconds: 30,
      disabledTenants: [],
    });
    expect(
      loadConfig({
        PUBLIC_CACHE_ENABLED: 'false',
        PUBLIC_CACHE_SHARED: 'true',
        PUBLIC_CACHE_S_MAXAGE_SECONDS: '300',
        PUBLIC_CACHE_STALE_WHILE_REVALIDATE_SECONDS: '0',
        PUBLIC_CACHE_DISABLED_TENANTS: ' acme, bakery-2 ,acme,',
      }).publicCache,
    ).toEqual({
      enabled: false,
      shared: true,
      sMaxAgeSeconds: 300,
      staleWhileRevalidateSeconds: 0,
      disabledTenants: ['acme', 'bakery-2'],
    });
  });

  it.each([
    ['PUBLIC_CACHE_ENABLED', 'yes'],
    ['PUBLIC_CACHE_SHARED', 'on'],
    ['PUBLIC_CACHE_S_MAXAGE_SECONDS', '-1'],
    ['PUBLIC_CACHE_S_MAXAGE_SECONDS', '86401'],
    ['PUBLIC_CACHE_STALE_WHILE_REVALIDATE_SECONDS', '1.5'],
    ['PUBLIC_CACHE_DISABLED_TENANTS', 'acme,Not A Slug'],
    ['PUBLIC_CACHE_DISABLED_TENANTS', '-acme'],
  ])('refuses %s=%s', (variable, value) => {
    expect(configErrorOf({ [variable]: value }).message).toContain(variable);
  });

  it.each(['yes', '-1', '10.0.0.0/33', '10.0.0.0/8,proxy.internal', '1.5'])(
    'refuses TRUST_PROXY=%s',
    (value) => {
      expect(configErrorOf({ TRUST_PROXY: value }).message).toContain('TRUST_PROXY');
    },
  );

  it('reads the HTTP server limits, and refuses a header timeout longer than the request timeout', () => {
    expect(loadConfig({}).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      maxConnections: 1024,
      maxConnectionsPerClient: 64,
    });
    expect(
      loadConfig({
        HTTP_HEADERS_TIMEOUT_MS: '500',
        HTTP_REQUEST_TIMEOUT_MS: '500',
        HTTP_MAX_CONNECTIONS: '2',
        HTTP_MAX_CONNECTIONS_PER_CLIENT: '1',
      }).http,
    ).toEqual({
      headersTimeoutMs: 500,
      requestTimeoutMs: 500,
      maxConnections: 2,
      maxConnectionsPerClient: 1,
    });
    expect(configErrorOf({ HTTP_HEADERS_TIMEOUT_MS: '40000' }).message).toContain('HTTP_HEADERS_TIMEOUT_MS');
    expect(configErrorOf({ HTTP_MAX_CONNECTIONS: '0' }).message).toContain('HTTP_MAX_CONNECTIONS');
    expect(configErrorOf({ HTTP_MAX_CONNECTIONS_PER_CLIENT: '0' }).message).toContain(
      'HTTP_MAX_CONNECTIONS_PER_CLIENT',
    );
  });

  it('reads ADMIN_APP_ORIGIN as an origin, and refuses what is not an http(s) URL', () => {
    expect(loadConfig({}).adminAppOrigin).toBeUndefined();
    expect(loadConfig({ ADMIN_APP_ORIGIN: 'https://Admin.Example.com:443/app/' }).adminAppOrigin).toBe(
      'https://admin.example.com',
    );
    expect(loadConfig({ ADMIN_APP_ORIGIN: 'http://localhost:5173' }).adminAppOrigin).toBe(
      'http://localhost:5173',
    );
    for (const value of ['admin.example.com', 'ftp://admin.example.com'])
      expect(configErrorOf({ ADMIN_APP_ORIGIN: value }).message).toContain('ADMIN_APP_ORIGIN');
  });

  it('refuses RATE_LIMIT_STORE=postgres without DATABASE_URL', () => {
    const error = configErrorOf({ RATE_LIMIT_STORE: 'postgres' });
    expect(error.message).toContain('RATE_LIMIT_STORE');
  });

  it('accepts RATE_LIMIT_STORE=postgres with DATABASE_URL', () => {
    expect(loadConfig({ RATE_LIMIT_STORE: 'postgres', DATABASE_URL: POSTGRES_URL }).rateLimit.store).toBe(
      'postgres',
    );
  });

  it('reads the Stripe keys and the optional account id with PAYMENT_PROVIDER=stripe', () => {
    expect(loadConfig(STRIPE).payments).toEqual({
      provider: 'stripe',
      webhookSecret: 'whsec_endpoint0123456789',
      stripe: {
        secretKey: STRIPE.STRIPE_SECRET_KEY,
        publishableKey: STRIPE.STRIPE_PUBLISHABLE_KEY,
        accountId: undefined,
      },
    });
    expect(loadConfig({ ...STRIPE, STRIPE_ACCOUNT_ID: 'acct_1Abc' }).payments.stripe?.accountId).toBe(
      'acct_1Abc',
    );
    expect(loadConfig({ ...STRIPE, STRIPE_SECRET_KEY: 'rk_test_51Abc0123' }).payments.stripe?.secretKey).toBe(
      'rk_test_51Abc0123',
    );
  });

  it('ignores Stripe keys while the sandbox is the provider', () => {
    expect(loadConfig({ ...STRIPE, PAYMENT_PROVIDER: 'sandbox' }).payments.stripe).toBeUndefined();
  });

  it.each(['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'])(
    'refuses PAYMENT_PROVIDER=stripe without %s',
    (variable) => {
      const error = configErrorOf({ ...STRIPE, [variable]: undefined });
      expect(error.message).toContain(`${variable}: is required when PAYMENT_PROVIDER=stripe`);
    },
  );

  it('refuses PAYMENT_PROVIDER=stripe with the development webhook secret', () => {
    const error = configErrorOf({ ...STRIPE, PAYMENT_WEBHOOK_SECRET: undefined });
    expect(error.message).toContain('PAYMENT_WEBHOOK_SECRET');
  });

  it.each([
    ['STRIPE_SECRET_KEY', 'pk_test_51Abc'],
    ['STRIPE_SECRET_KEY', 'sk_prod_51Abc'],
    ['STRIPE_PUBLISHABLE_KEY', 'sk_test_51Abc'],
    ['STRIPE_ACCOUNT_ID', 'acc_1Abc'],
  ])('refuses %s=%s', (variable, value) => {
    expect(configErrorOf({ ...STRIPE, [variable]: value }).message).toContain(variable);
  });

  it('refuses a live secret key beside a test publishable key', () => {
    const error = configErrorOf({ ...STRIPE, STRIPE_SECRET_KEY: 'sk_live_51Abc0123456789' });
    expect(error.message).toContain(
      'STRIPE_PUBLISHABLE_KEY: is a test key but STRIPE_SECRET_KEY is a live key',
    );
  });

  it('reads the carrier: the sandbox, a 10 s deadline and a 10000-cent starting balance by default', () => {
    expect(loadConfig({}).carrier).toEqual({
      provider: 'sandbox',
      timeoutMs: 10_000,
      sandboxStartingBalanceInCents: 10_000,
    });
    expect(loadConfig({ CARRIER_TIMEOUT_MS: '250', SANDBOX_POSTAGE_BALANCE_IN_CENTS: '0' }).carrier).toEqual({
      provider: 'sandbox',
      timeoutMs: 250,
      sandboxStartingBalanceInCents: 0,
    });
    expect(configErrorOf({ CARRIER_PROVIDER: 'ups' }).message).toContain('CARRIER_PROVIDER');
    expect(configErrorOf({ CARRIER_TIMEOUT_MS: '0' }).message).toContain('CARRIER_TIMEOUT_MS');
    expect(configErrorOf({ SANDBOX_POSTAGE_BALANCE_IN_CENTS: '-1' }).message).toContain(
      'SANDBOX_POSTAGE_BALANCE_IN_CENTS',
    );
  });

  it('reads the distance provider: sandbox with a 3 s timeout by default, google only with its key', () => {
    expect(loadConfig({}).distance).toEqual({ provider: 'sandbox', apiKey: undefined, timeoutMs: 3000 });
    expect(
      loadConfig({ DISTANCE_PROVIDER: 'google', DISTANCE_API_KEY: 'maps-key', DISTANCE_TIMEOUT_MS: '500' })
        .distance,
    ).toEqual({ provider: 'google', apiKey: 'maps-key', timeoutMs: 500 });
    expect(loadConfig({ DISTANCE_API_KEY: 'maps-key' }).distance.apiKey).toBeUndefined();
    expect(configErrorOf({ DISTANCE_PROVIDER: 'google' }).message).toContain(
      'DISTANCE_API_KEY: is required when DISTANCE_PROVIDER=google',
    );
    expect(configErrorOf({ DISTANCE_PROVIDER: 'google', DISTANCE_API_KEY: '  ' }).message).toContain(
      'DISTANCE_API_KEY',
    );
    expect(configErrorOf({ DISTANCE_PROVIDER: 'osrm' }).message).toContain('DISTANCE_PROVIDER');
    expect(configErrorOf({ DISTANCE_TIMEOUT_MS: '0' }).message).toContain('DISTANCE_TIMEOUT_MS');
  });

  it.each(['redis://127.0.0.1:6379', 'rediss://cache.example.com:6380/0'])(
    'accepts RATE_LIMIT_STORE=%s',
    (store) => {
      expect(loadConfig({ RATE_LIMIT_STORE: store }).rateLimit.store).toBe(store);
    },
  );
});

describe('OUTBOX_CONCURRENCY', () => {
  it('defaults to 10 deliveries in flight per worker and reads an explicit value', () => {
    expect(loadConfig({}).outboxConcurrency).toBe(10);
    expect(loadConfig({ OUTBOX_CONCURRENCY: '32' }).outboxConcurrency).toBe(32);
  });

  it.each(['0', '101', '2.5', 'many'])('refuses OUTBOX_CONCURRENCY=%s', (value) => {
    expect(configErrorOf({ OUTBOX_CONCURRENCY: value }).message).toContain('OUTBOX_CONCURRENCY');
  });
});

describe('sandbox providers in production (docs/operations.md, "Sandbox providers in production")', () => {
  const production = {
    NODE_ENV: 'production',
    MERCHANT_JWT_SECRET: PRODUCTION_SECRET,
    PAYMENT_WEBHOOK_SECRET: PRODUCTION_WEBHOOK_SECRET,
    SMTP_URL: SMTP,
  };

  it('refuses production without PAYMENT_PROVIDER: the sandbox is never its default', () => {
    expect(configErrorOf(production).message).toMatch(/PAYMENT_PROVIDER: is required in production/);
  });

  it('refuses production with PAYMENT_PROVIDER=sandbox, and with a sandbox tax, distance or carrier', () => {
    expect(configErrorOf({ ...production, PAYMENT_PROVIDER: 'sandbox' }).message).toMatch(
      /PAYMENT_PROVIDER: sandbox is refused in production unless ALLOW_SANDBOX_IN_PRODUCTION=true/,
    );
    for (const name of ['TAX_PROVIDER', 'DISTANCE_PROVIDER', 'CARRIER_PROVIDER']) {
      expect(configErrorOf({ ...production, ...STRIPE, [name]: 'sandbox' }).message).toContain(
        `${name}: sandbox is refused in production`,
      );
    }
    expect(
      configErrorOf({ ...production, PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_IN_PRODUCTION: 'false' })
        .message,
    ).toContain('PAYMENT_PROVIDER: sandbox is refused in production');
  });

  it('starts production on a real processor with no carrier or distance provider, and marks nothing', () => {
    const config = loadConfig({ ...production, ...STRIPE });
    expect(config.payments.provider).toBe('stripe');
    expect(config.carrier.provider).toBe('none');
    expect(config.distance.provider).toBe('none');
    expect(config.checkout.taxProvider).toBe('none');
    expect(config.sandboxInProduction).toEqual([]);
  });

  it('runs the sandbox in production with ALLOW_SANDBOX_IN_PRODUCTION=true, naming what it runs', () => {
    const config = loadConfig({
      ...production,
      PAYMENT_PROVIDER: 'sandbox',
      TAX_PROVIDER: 'sandbox',
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    });
    expect(config.payments.provider).toBe('sandbox');
    expect(config.carrier.provider).toBe('sandbox');
    expect(config.distance.provider).toBe('sandbox');
    expect(config.sandboxInProduction).toEqual(['payment', 'tax', 'distance', 'carrier']);
    // A staging store may still take real payments and only use the sandbox carrier.
    const stripe = loadConfig({ ...production, ...STRIPE, ALLOW_SANDBOX_IN_PRODUCTION: 'true' });
    expect(stripe.sandboxInProduction).toEqual(['distance', 'carrier']);
  });

  it('keeps the sandbox the unmarked default outside production', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const config = loadConfig({ NODE_ENV });
      expect(config.payments.provider).toBe('sandbox');
      expect(config.carrier.provider).toBe('sandbox');
      expect(config.distance.provider).toBe('sandbox');
      expect(config.sandboxInProduction).toEqual([]);
    }
  });
});

describe('RATE_LIMIT_IPV6_PREFIX', () => {
  it('keys IPv6 clients on their /64 by default and reads a prefix of 16 to 128 bits', () => {
    expect(loadConfig({}).rateLimit.ipv6Prefix).toBe(64);
    expect(loadConfig({ RATE_LIMIT_IPV6_PREFIX: '56' }).rateLimit.ipv6Prefix).toBe(56);
    for (const value of ['8', '129', 'wide'])
      expect(configErrorOf({ RATE_LIMIT_IPV6_PREFIX: value }).message).toContain('RATE_LIMIT_IPV6_PREFIX');
  });
});

describe('outbound webhooks', () => {
  const production = {
    NODE_ENV: 'production',
    MERCHANT_JWT_SECRET: PRODUCTION_SECRET,
    SMTP_URL: SMTP,
    ...STRIPE,
  };

  it('allows private hosts and plain http outside production, with a development signing key', () => {
    const { webhooks } = loadConfig({});
    expect(webhooks.allowPrivateHosts).toBe(true);
    expect(webhooks.requireHttps).toBe(false);
    expect(webhooks.signingKey).toMatch(/^dev-only/);
  });

  it('refuses private hosts, needs https and has no signing key of its own in production', () => {
    const { webhooks } = loadConfig(production);
    expect(webhooks).toEqual({ signingKey: undefined, allowPrivateHosts: false, requireHttps: true });
    const key = 'a-production-webhook-signing-key-0123456789';
    expect(loadConfig({ ...production, WEBHOOK_SIGNING_KEY: key }).webhooks.signingKey).toBe(key);
    expect(
      loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true' }).webhooks.allowPrivateHosts,
    ).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_HOSTS: 'false' }).webhooks.allowPrivateHosts).toBe(false);
  });

  it('refuses a short signing key, and the development one in production', () => {
    expect(configErrorOf({ WEBHOOK_SIGNING_KEY: 'short' }).message).toContain('WEBHOOK_SIGNING_KEY');
    const development = loadConfig({}).webhooks.signingKey;
    expect(configErrorOf({ ...production, WEBHOOK_SIGNING_KEY: development }).message).toContain(
      'WEBHOOK_SIGNING_KEY',
    );
  });
});
