import { signInForTest } from '@commerce/customers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoomService } from '../support/bookings.ts';
import { createHarness, errorOf, expectJson, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * The hold limit through the gateway: it counts a client's active holds and the unpaid bookings it
 * converted (per client address and per email), and the owner of an email, signed in, keeps a limit
 * of their own.
 */
let h: Harness;
let shop: RoleFixture;
let serviceId: string;

beforeAll(async () => {
  h = await createHarness({ env: { TRUST_PROXY: 'true' } });
  h.clock.set('2026-07-01T08:00:00Z');
  shop = await createRoleFixture(h, 'hold-limits');
  ({ serviceId } = await createRoomService(shop, {
    slug: 'rooms',
    name: 'Rooms',
    capacity: 100,
    extra: { checkout: { paymentMode: 'PAY_NOW', paymentWindowMinutes: 30 } },
  }));
});
afterAll(async () => {
  await h.close();
});

let keys = 0;
function hold(client: string, email: string, headers: Record<string, string> = {}) {
  keys += 1;
  const key = `hold-limits-key-${String(keys).padStart(6, '0')}`;
  const response = h.app.request('/api/v1/public/booking-holds', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-organization-slug': shop.slug,
      'x-idempotency-key': key,
      'x-forwarded-for': client,
      ...headers,
    },
    body: JSON.stringify({
      serviceId,
      startsAt: '2026-07-02T10:00:00+01:00',
      endsAt: '2026-07-02T11:00:00+01:00',
      quantity: 1,
      customerEmail: email,
    }),
  });
  return { key, response };
}

async function holdAndConvert(client: string, email: string) {
  const { key, response } = hold(client, email);
  const held = await expectJson<{ id: string }>(await response, 201);
  const conversion = await expectJson<{ bookingStatus: string }>(
    await h.app.request(`/api/v1/public/booking-holds/${held.id}/checkout`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-organization-slug': shop.slug,
        'x-idempotency-key': key,
        'x-forwarded-for': client,
      },
      body: JSON.stringify({ customerName: 'Ada Lovelace', customerEmail: email }),
    }),
    200,
  );
  expect(conversion.bookingStatus).toBe('PENDING_PAYMENT');
}

describe('the hold limit counts unpaid conversions', () => {
  it('10 hold-and-convert pairs, then a hold from the same address: 429 with Retry-After; another address holds', async () => {
    for (let index = 0; index < 10; index += 1)
      await holdAndConvert('192.0.2.10', `buyer${index}@example.com`);
    const refused = await hold('192.0.2.10', 'buyer99@example.com').response;
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).code).toBe('RATE_LIMIT_EXCEEDED');
    // Until the first payment window (30 minutes) closes.
    expect(Number(refused.headers.get('retry-after'))).toBe(1800);
    expect((await hold('192.0.2.11', 'buyer99@example.com').response).status).toBe(201);
  });

  it('10 holds in a customer’s email from elsewhere: guests are refused, the owner signed in still holds', async () => {
    for (let index = 0; index < 10; index += 1)
      expect((await hold(`198.51.100.${index}`, 'owner@example.com').response).status).toBe(201);
    expect((await hold('198.51.100.50', 'OWNER@example.com').response).status).toBe(429);
    const { token } = await signInForTest(
      h.database.db,
      shop.organizationId,
      'owner@example.com',
      h.clock.now(),
    );
    const mine = await hold('198.51.100.51', 'owner@example.com', { authorization: `Bearer ${token}` })
      .response;
    expect(mine.status).toBe(201);
  });
});
