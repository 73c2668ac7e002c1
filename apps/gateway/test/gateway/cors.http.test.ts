import { signInForTest } from '@commerce/customers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';

const HOSTED = 'https://checkout.example';
const ADMIN = 'https://admin.example';
const STOREFRONT = 'https://shop-a.example';
const OTHER_STOREFRONT = 'https://shop-b.example';
const STRANGER = 'https://evil.example';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { HOSTED_CHECKOUT_URL: HOSTED, ADMIN_APP_ORIGIN: ADMIN } });
  for (const [slug, origin] of [
    ['shop-a', STOREFRONT],
    ['shop-b', OTHER_STOREFRONT],
  ] as const) {
    await h.provision(slug, `owner@${slug}.test`);
    const token = await h.token({ email: `owner@${slug}.test` });
    const patched = await h.app.request('/api/v1/merchant/settings', {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'x-organization-slug': slug,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ apiSettings: { allowedOrigins: [origin] } }),
    });
    expect(patched.status).toBe(200);
  }
});
afterAll(async () => {
  await h.close();
});

const preflight = (path: string, origin: string) =>
  h.app.request(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,x-organization-slug,x-idempotency-key',
    },
  });

const get = (path: string, headers: Record<string, string>) => h.app.request(path, { headers });

const varyOf = (response: Response) =>
  (response.headers.get('vary') ?? '').split(',').map((value) => value.trim().toLowerCase());

describe('CORS preflights', () => {
  it.each([
    ['public', '/api/v1/public/checkout/sessions', null],
    ['customer', '/api/v1/customer/auth/logout', 'true'],
  ])(
    'answers a %s preflight from any http(s) origin: it carries no tenant, the real answer decides',
    async (_surface, path, credentials) => {
      for (const origin of [STOREFRONT, STRANGER, 'http://localhost:5173']) {
        const response = await preflight(path, origin);
        expect(response.status).toBe(204);
        expect(response.headers.get('access-control-allow-origin')).toBe(origin);
        expect(response.headers.get('access-control-allow-credentials')).toBe(credentials);
        expect(response.headers.get('access-control-allow-methods')?.split(',')).toEqual(
          expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']),
        );
        expect(response.headers.get('access-control-allow-headers')?.split(',')).toEqual(
          expect.arrayContaining([
            'content-type',
            'x-organization-slug',
            'x-idempotency-key',
            'authorization',
            'if-none-match',
          ]),
        );
        expect(response.headers.get('access-control-max-age')).toBe('600');
        expect(varyOf(response)).toContain('origin');
      }
    },
  );

  it('names no origin in a preflight from a null or non-http origin', async () => {
    for (const origin of ['null', 'chrome-extension://abcdef', 'not an origin']) {
      const response = await preflight('/api/v1/public/checkout/sessions', origin);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('opens the merchant surface to the admin app only', async () => {
    const admin = await preflight('/api/v1/merchant/settings', ADMIN);
    expect(admin.status).toBe(204);
    expect(admin.headers.get('access-control-allow-origin')).toBe(ADMIN);
    expect(admin.headers.get('access-control-allow-credentials')).toBeNull();
    for (const origin of [STOREFRONT, HOSTED, STRANGER]) {
      const response = await preflight('/api/v1/merchant/settings', origin);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('sends no CORS headers outside the three surfaces', async () => {
    for (const path of ['/api/v1/platform/organizations', '/api/v1/webhooks/payments', '/trpc/anything']) {
      const response = await preflight(path, ADMIN);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});

describe('CORS on answers', () => {
  it("names a tenant's allowed origin, exposes the contract's headers and varies on Origin", async () => {
    const response = await get('/api/v1/public/organization', {
      origin: STOREFRONT,
      'x-organization-slug': 'shop-a',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(STOREFRONT);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('access-control-expose-headers')?.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['x-request-id', 'retry-after', 'idempotent-replayed', 'etag']),
    );
    expect(varyOf(response)).toContain('origin');
    expect(((await response.json()) as { slug: string }).slug).toBe('shop-a');
  });

  it('names the hosted app origin for every tenant', async () => {
    for (const slug of ['shop-a', 'shop-b']) {
      const response = await get('/api/v1/public/organization', {
        origin: HOSTED,
        'x-organization-slug': slug,
      });
      expect(response.headers.get('access-control-allow-origin')).toBe(HOSTED);
    }
  });

  it("names neither another tenant's origin nor a stranger's, while still answering and varying on Origin", async () => {
    for (const origin of [OTHER_STOREFRONT, STRANGER]) {
      const response = await get('/api/v1/public/organization', { origin, 'x-organization-slug': 'shop-a' });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(varyOf(response)).toContain('origin');
    }
    // Without a tenant there are no tenant origins; an unknown tenant has none either.
    const unknown = await get('/api/v1/public/organization', {
      origin: STOREFRONT,
      'x-organization-slug': 'nobody',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('access-control-allow-origin')).toBeNull();
    const missing = await get('/api/v1/public/organization', { origin: STOREFRONT });
    expect(missing.status).toBe(400);
    expect(missing.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('names the allowed origin on error answers too, so the storefront can read the envelope', async () => {
    const response = await get('/api/v1/public/items/no-such-item', {
      origin: STOREFRONT,
      'x-organization-slug': 'shop-a',
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe(STOREFRONT);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('allows credentials on the customer surface', async () => {
    const response = await get('/api/v1/customer/account/profile', {
      origin: STOREFRONT,
      'x-organization-slug': 'shop-a',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(STOREFRONT);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('names the admin app on merchant answers, and no storefront', async () => {
    const token = await h.token({ email: 'owner@shop-a.test' });
    const headers = { authorization: `Bearer ${token}`, 'x-organization-slug': 'shop-a' };
    const admin = await get('/api/v1/merchant/settings', { ...headers, origin: ADMIN });
    expect(admin.status).toBe(200);
    expect(admin.headers.get('access-control-allow-origin')).toBe(ADMIN);
    const storefront = await get('/api/v1/merchant/settings', { ...headers, origin: STOREFRONT });
    expect(storefront.status).toBe(200);
    expect(storefront.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends no Access-Control-Allow-Origin to a request without Origin', async () => {
    const response = await get('/api/v1/public/organization', { 'x-organization-slug': 'shop-a' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS without ADMIN_APP_ORIGIN, and with a hosted URL per tenant', () => {
  it('opens the merchant surface to no origin, and derives the hosted origin from {orgSlug}', async () => {
    const bare = await createHarness({ env: { HOSTED_CHECKOUT_URL: 'https://{orgSlug}.shops.example' } });
    try {
      const acme = await bare.provision('acme', 'owner@acme.test');
      for (const origin of [ADMIN, 'http://localhost:3000']) {
        const response = await bare.app.request('/api/v1/merchant/settings', {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'GET' },
        });
        expect(response.headers.get('access-control-allow-origin')).toBeNull();
      }
      const read = (origin: string) =>
        bare.app.request('/api/v1/public/organization', {
          headers: { origin, 'x-organization-slug': 'acme' },
        });
      expect((await read('https://acme.shops.example')).headers.get('access-control-allow-origin')).toBe(
        'https://acme.shops.example',
      );
      expect(
        (await read('https://other.shops.example')).headers.get('access-control-allow-origin'),
      ).toBeNull();

      // The customer procedures' origin check allows the same hosted origin: a cookie logout from the
      // tenant's hosted app passes, one from another tenant's hosted app is 403.
      const logout = async (origin: string) => {
        const session = await signInForTest(bare.database.db, acme.id, 'ada@example.com', bare.clock.now());
        return bare.app.request('/api/v1/customer/auth/logout', {
          method: 'POST',
          headers: { origin, 'x-organization-slug': 'acme', cookie: `__Host-session=${session.token}` },
        });
      };
      const allowed = await logout('https://acme.shops.example');
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://acme.shops.example');
      expect((await logout('https://other.shops.example')).status).toBe(403);
    } finally {
      await bare.close();
    }
  }, 60_000);
});
