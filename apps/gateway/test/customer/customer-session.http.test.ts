import { sessionIdOf } from '@commerce/customers';
import { signInForTest } from '@commerce/customers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';

let h: Harness;
let shop: { id: string; slug: string };
let other: { id: string; slug: string };

const DAY_MS = 24 * 60 * 60 * 1000;
const SHOP_ORIGIN = 'https://shop.example';

beforeAll(async () => {
  h = await createHarness({ env: { HOSTED_CHECKOUT_URL: 'https://checkout.example' } });
  shop = await h.provision('session-shop', 'owner@session-shop.test');
  other = await h.provision('session-other', 'owner@session-other.test');
  const owner = await h.token({ email: 'owner@session-shop.test' });
  const response = await h.app.request('/api/v1/merchant/settings', {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${owner}`,
      'x-organization-slug': shop.slug,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ apiSettings: { allowedOrigins: [SHOP_ORIGIN] } }),
  });
  expect(response.status).toBe(200);
});
afterAll(async () => {
  await h.close();
});

const signIn = (email: string, organizationId = shop.id) =>
  signInForTest(h.database.db, organizationId, email, h.clock.now());

function call(
  path: string,
  options: { slug?: string | null; bearer?: string; cookie?: string; method?: string; origin?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.slug !== null) headers['x-organization-slug'] = options.slug ?? shop.slug;
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  if (options.origin !== undefined) headers.origin = options.origin;
  return h.app.request(`/api/v1${path}`, { method: options.method ?? 'GET', headers });
}

const cookieOf = (token: string) => `theme=dark; __Host-session=${token}`;

describe('customerProcedure: who is signed in', () => {
  it('reads the session from the bearer header or the cookie', async () => {
    const session = await signIn('ada@example.com');
    for (const credential of [{ bearer: session.token }, { cookie: cookieOf(session.token) }]) {
      const response = await call('/customer/account/profile', credential);
      expect(response.status).toBe(200);
      const profile = (await response.json()) as { id: string; email: string; emailVerified: boolean };
      expect(profile).toMatchObject({
        id: session.customerId,
        email: 'ada@example.com',
        emailVerified: true,
      });
    }
  });

  it('keeps customers apart: each session reads its own profile', async () => {
    const ada = await signIn('ada2@example.com');
    const bob = await signIn('bob2@example.com');
    const read = async (token: string) =>
      ((await (await call('/customer/account/profile', { bearer: token })).json()) as { id: string }).id;
    expect(await read(ada.token)).toBe(ada.customerId);
    expect(await read(bob.token)).toBe(bob.customerId);
    expect(ada.customerId).not.toBe(bob.customerId);
  });

  it('answers 401 without a credential, 400 without the tenant header', async () => {
    await expectError(await call('/customer/account/profile'), 401, 'UNAUTHENTICATED');
    const session = await signIn('tenantless@example.com');
    await expectError(
      await call('/customer/account/profile', { slug: null, bearer: session.token }),
      400,
      'TENANT_REQUIRED',
    );
  });

  it('answers 401 to malformed, unknown and merchant tokens', async () => {
    const merchantJwt = await h.token({ email: 'owner@session-shop.test' });
    for (const bearer of ['nope', `s1_${'A'.repeat(43)}`, merchantJwt]) {
      await expectError(await call('/customer/account/profile', { bearer }), 401, 'UNAUTHENTICATED');
    }
    await expectError(
      await call('/customer/account/profile', { cookie: '__Host-session=s1_forged' }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it("answers 401 to a session presented with another tenant's header", async () => {
    const session = await signIn('ada@example.com');
    await expectError(
      await call('/customer/account/profile', { slug: other.slug, bearer: session.token }),
      401,
      'UNAUTHENTICATED',
    );
    await expectError(
      await call('/customer/account/profile', { slug: other.slug, cookie: cookieOf(session.token) }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('prefers the bearer header: a bad bearer is 401 even beside a good cookie', async () => {
    const session = await signIn('ada@example.com');
    await expectError(
      await call('/customer/account/profile', { bearer: 'bad', cookie: cookieOf(session.token) }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('stores only the hash of the token', async () => {
    const session = await signIn('hash@example.com');
    const rows = await h.database.db.selectFrom('customer_sessions').selectAll().execute();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(session.token);
    expect(dump).not.toContain(session.token.slice(3));
    expect(rows.map((row) => row.id)).toContain(sessionIdOf(session.token));
  });

  it('never logs the token or the email', async () => {
    const session = await signIn('private@example.com');
    expect((await call('/customer/account/profile', { cookie: cookieOf(session.token) })).status).toBe(200);
    const logged = JSON.stringify(h.logs);
    expect(logged).not.toContain(session.token);
    expect(logged).not.toContain('private@example.com');
  });
});

describe('session lifetime', () => {
  it('expires after 30 days without use', async () => {
    const session = await signIn('expiring@example.com');
    expect(session.expiresAt.getTime() - h.clock.now().getTime()).toBe(30 * DAY_MS);
    h.clock.advance(30 * DAY_MS + 1000);
    await expectError(
      await call('/customer/account/profile', { bearer: session.token }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('is not renewed while more than 15 days remain', async () => {
    const session = await signIn('fresh@example.com');
    h.clock.advance(14 * DAY_MS);
    const response = await call('/customer/account/profile', { cookie: cookieOf(session.token) });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('slides: renewed to 30 days when less than 15 remain, the cookie set again', async () => {
    const session = await signIn('sliding@example.com');
    h.clock.advance(16 * DAY_MS);
    const response = await call('/customer/account/profile', { cookie: cookieOf(session.token) });
    expect(response.status).toBe(200);
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toContain(`__Host-session=${session.token}`);
    expect(setCookie).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax; Max-Age=2592000; Expires=/);
    const row = await h.database.db
      .selectFrom('customer_sessions')
      .select('expires_at')
      .where('id', '=', sessionIdOf(session.token))
      .executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).getTime()).toBe(h.clock.now().getTime() + 30 * DAY_MS);
    // 20 more days: alive only because it was renewed.
    h.clock.advance(20 * DAY_MS);
    expect((await call('/customer/account/profile', { bearer: session.token })).status).toBe(200);
  });

  it('renews a bearer session without a cookie', async () => {
    const session = await signIn('bearer-slide@example.com');
    h.clock.advance(16 * DAY_MS);
    const response = await call('/customer/account/profile', { bearer: session.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    h.clock.advance(20 * DAY_MS);
    expect((await call('/customer/account/profile', { bearer: session.token })).status).toBe(200);
  });
});

describe('POST /customer/auth/logout', () => {
  it('revokes the session and clears the cookie', async () => {
    const session = await signIn('logout@example.com');
    const response = await call('/customer/auth/logout', { method: 'POST', bearer: session.token });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ revoked: true });
    expect(response.headers.get('set-cookie')).toBe(
      '__Host-session=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    );
    await expectError(
      await call('/customer/account/profile', { bearer: session.token }),
      401,
      'UNAUTHENTICATED',
    );
    await expectError(
      await call('/customer/auth/logout', { method: 'POST', bearer: session.token }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('revokes only the session presented', async () => {
    const first = await signIn('two-devices@example.com');
    const second = await signIn('two-devices@example.com');
    expect(first.customerId).toBe(second.customerId);
    expect((await call('/customer/auth/logout', { method: 'POST', bearer: first.token })).status).toBe(200);
    expect((await call('/customer/account/profile', { bearer: second.token })).status).toBe(200);
  });
});

describe('CSRF: cookie-authenticated changes need an allowed Origin', () => {
  it('refuses a cookie logout without an Origin, or from another origin, and keeps the session', async () => {
    const session = await signIn('csrf@example.com');
    const cookie = cookieOf(session.token);
    for (const origin of [undefined, 'https://evil.example', 'null', 'https://shop.example.evil.example']) {
      const response = await call('/customer/auth/logout', {
        method: 'POST',
        cookie,
        ...(origin ? { origin } : {}),
      });
      await expectError(response, 403, 'FORBIDDEN');
    }
    expect((await call('/customer/account/profile', { cookie })).status).toBe(200);
  });

  it("accepts the tenant's allowed origin and the hosted surface", async () => {
    for (const origin of [SHOP_ORIGIN, 'https://checkout.example']) {
      const session = await signIn('csrf-ok@example.com');
      const response = await call('/customer/auth/logout', {
        method: 'POST',
        cookie: cookieOf(session.token),
        origin,
      });
      expect(response.status).toBe(200);
    }
  });

  it("does not take another tenant's allowed origins", async () => {
    const session = await signIn('csrf-other@example.com', other.id);
    await expectError(
      await call('/customer/auth/logout', {
        method: 'POST',
        slug: other.slug,
        cookie: cookieOf(session.token),
        origin: SHOP_ORIGIN,
      }),
      403,
      'FORBIDDEN',
    );
  });

  it('exempts bearer calls and reads', async () => {
    const session = await signIn('csrf-bearer@example.com');
    expect((await call('/customer/account/profile', { cookie: cookieOf(session.token) })).status).toBe(200);
    const response = await call('/customer/auth/logout', {
      method: 'POST',
      bearer: session.token,
      origin: 'https://evil.example',
    });
    expect(response.status).toBe(200);
  });
});
