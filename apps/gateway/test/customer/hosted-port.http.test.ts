import { signInForTest } from '@commerce/customers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';

/**
 * A gateway on a port other than 3000 without HOSTED_CHECKOUT_URL: the hosted app it serves is on
 * that port, so its origin may make signed-in changes and emailed links point at it.
 */

const PORT = 45321;
const APP_ORIGIN = `http://localhost:${PORT}`;

let h: Harness;
let shop: { id: string; slug: string };

beforeAll(async () => {
  h = await createHarness({ env: { PORT: String(PORT) } });
  shop = await h.provision('port-shop', 'owner@port-shop.test');
});
afterAll(async () => {
  await h.close();
});

const cookieOf = (token: string) => `__Host-session=${token}`;

function call(path: string, init: { method: string; cookie?: string; origin?: string; body?: unknown }) {
  const headers: Record<string, string> = { 'x-organization-slug': shop.slug };
  if (init.cookie !== undefined) headers.cookie = init.cookie;
  if (init.origin !== undefined) headers.origin = init.origin;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return h.app.request(`/api/v1${path}`, {
    method: init.method,
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

describe('hosted app on a non-default PORT', () => {
  it("accepts signed-in changes from the hosted app's own origin", async () => {
    const session = await signInForTest(h.database.db, shop.id, 'port@example.com', h.clock.now());
    const cookie = cookieOf(session.token);
    const profile = await call('/customer/account/profile', {
      method: 'PATCH',
      cookie,
      origin: APP_ORIGIN,
      body: { name: 'Ada' },
    });
    expect(profile.status).toBe(200);
    const elsewhere = await call('/customer/auth/logout', {
      method: 'POST',
      cookie,
      origin: 'http://localhost:3000',
    });
    expect(elsewhere.status).toBe(403);
    const logout = await call('/customer/auth/logout', { method: 'POST', cookie, origin: APP_ORIGIN });
    expect(logout.status).toBe(200);
  });

  it('emails links on the port the gateway listens on', async () => {
    const response = await call('/public/customer/auth/request-link', {
      method: 'POST',
      body: { email: 'link@example.com' },
    });
    expect(response.status).toBeLessThan(300);
    const rows = await h.database.db
      .selectFrom('outbox')
      .select(['payload'])
      .where('organization_id', '=', shop.id)
      .execute();
    const email = rows
      .map((row) => row.payload as { to: string; text: string })
      .find((payload) => payload.to === 'link@example.com');
    expect(email?.text).toContain(`${APP_ORIGIN}/hosted/${shop.slug}/account/verify?token=`);
  });
});
