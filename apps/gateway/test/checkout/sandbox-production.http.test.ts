import { Writable } from 'node:stream';
import { createDistanceProvider, DistanceUnavailableError } from '@commerce/bookings';
import { loadConfig } from '@commerce/core';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { startGateway } from '../../src/server.ts';
import { createHarness, expectError, type Harness, json } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

// A production process as an operator starts it: its own secrets and SMTP (the harness's mailer
// records mail; SMTP_URL only satisfies the production check).
const PRODUCTION = {
  NODE_ENV: 'production',
  MERCHANT_JWT_SECRET: 'a-production-secret-that-is-not-the-development-one',
  PAYMENT_WEBHOOK_SECRET: 'whsec_production_0123456789abcdef',
  SMTP_URL: 'smtp://mail.internal:587',
};
const STRIPE = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_51Abc0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_51Abc0123456789',
};
const TEST_CARD = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };

describe('a production store on a real processor (no sandbox)', () => {
  let h: Harness;
  let shop: RoleFixture;
  beforeAll(async () => {
    h = await createHarness({ env: { ...PRODUCTION, ...STRIPE } });
    shop = await createRoleFixture(h, 'live-shop');
  });
  afterAll(async () => {
    await h.close();
  });

  it('has no sandbox payment confirmation, carrier console or carrier, and marks no answer', async () => {
    const confirm = await h.app.request(
      '/api/v1/public/sandbox-payments/confirm',
      json({ clientSecret: 'sbx_pi_x_secret_y', card: TEST_CARD }, { 'x-organization-slug': shop.slug }),
    );
    await expectError(confirm, 404, 'RESOURCE_NOT_FOUND');
    expect(confirm.headers.get('x-sandbox')).toBeNull();
    await expectError(
      await shop.call('owner', 'POST', '/merchant/shipping/sandbox-carrier/funds', { amountInCents: 50_000 }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await shop.call('owner', 'GET', '/merchant/shipping/sandbox-carrier'),
      404,
      'RESOURCE_NOT_FOUND',
    );
    const carriers = await shop.call('owner', 'GET', '/merchant/shipping/carriers');
    expect(await carriers.json()).toEqual({ data: [], nextCursor: null });
    expect(carriers.headers.get('x-sandbox')).toBeNull();
    // No label can be quoted (or bought) from a carrier that is not there.
    await expectError(
      await shop.call(
        'owner',
        'POST',
        '/merchant/orders/ord_01JZZZZZZZZZZZZZZZZZZZZZZZ/shipping-label/quote',
        {
          lines: [{ lineId: 'oli_x', quantity: 1 }],
          package: { lengthMm: 300, widthMm: 200, heightMm: 100, loadedWeightGrams: 900 },
          carrier: 'sandbox',
          service: 'GROUND',
        },
      ),
      503,
      'PROVIDER_UNAVAILABLE',
    );
    // Postage cannot be read from a carrier that is not there: 503, never sandbox money.
    await expectError(
      await shop.call('owner', 'GET', '/merchant/shipping/postage-balance'),
      503,
      'PROVIDER_UNAVAILABLE',
    );
  });

  it('answers delivery distances with the provider-unavailable failure (a delivery hold is 503)', async () => {
    const config = loadConfig({ ...PRODUCTION, ...STRIPE });
    const distance = createDistanceProvider(config);
    expect(distance.kind).toBe('none');
    await expect(
      distance.distance({
        origin: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
        destination: { line1: '2 Elm St', city: 'Springfield', postalCode: '12346', country: 'US' },
      }),
    ).rejects.toBeInstanceOf(DistanceUnavailableError);
  });
});

describe('a staging store: production with ALLOW_SANDBOX_IN_PRODUCTION=true', () => {
  let h: Harness;
  let shop: RoleFixture;
  beforeAll(async () => {
    h = await createHarness({
      env: { ...PRODUCTION, PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_IN_PRODUCTION: 'true' },
    });
    shop = await createRoleFixture(h, 'staging-shop');
  });
  afterAll(async () => {
    await h.close();
  });

  it('runs the sandbox console routes and marks every answer with the sandbox providers it runs', async () => {
    const marked = 'payment, distance, carrier';
    const health = await h.app.request('/healthz');
    expect(health.headers.get('x-sandbox')).toBe(marked);
    const console = await shop.call('owner', 'GET', '/merchant/shipping/sandbox-carrier');
    expect(console.status).toBe(200);
    expect(console.headers.get('x-sandbox')).toBe(marked);
    // The sandbox processor's card form is there (an unknown client secret is its neutral 404), marked.
    const confirm = await h.app.request(
      '/api/v1/public/sandbox-payments/confirm',
      json({ clientSecret: 'sbx_pi_x_secret_y', card: TEST_CARD }, { 'x-organization-slug': shop.slug }),
    );
    expect(confirm.status).toBe(404);
    expect(confirm.headers.get('x-sandbox')).toBe(marked);
    const trpc = await h.app.request('/trpc/public.sandboxPayments.confirm', {
      ...json({ clientSecret: 'sbx_pi_x_secret_y', card: TEST_CARD }, { 'x-organization-slug': shop.slug }),
    });
    expect(trpc.headers.get('x-sandbox')).toBe(marked);
  });

  it('documents the mark in the OpenAPI document', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      info: { description: string };
    };
    expect(document.info.description).toContain('ALLOW_SANDBOX_IN_PRODUCTION=true');
    expect(document.info.description).toContain('x-sandbox');
  });
});

describe('the start-up log of a staging store', () => {
  it('names ALLOW_SANDBOX_IN_PRODUCTION and the sandbox providers it runs', async () => {
    const config = loadConfig({
      ...PRODUCTION,
      PAYMENT_PROVIDER: 'sandbox',
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
      HOST: '127.0.0.1',
      PORT: '0',
      SEED_DEMO: 'false',
      RUN_WORKER: 'false',
    });
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    });
    const gateway = await startGateway(config, createLogger('info', sink), {
      database: await createTestDatabase(),
    });
    try {
      const warning = lines.find((line) => line.setting === 'ALLOW_SANDBOX_IN_PRODUCTION');
      expect(warning).toMatchObject({
        level: 40, // warn
        sandboxProviders: ['payment', 'distance', 'carrier'],
      });
      expect(String(warning?.msg)).toContain('ALLOW_SANDBOX_IN_PRODUCTION=true');
      const health = await fetch(`${gateway.url}/healthz`);
      expect(health.headers.get('x-sandbox')).toBe('payment, distance, carrier');
    } finally {
      await gateway.close();
    }
  }, 60_000);
});
