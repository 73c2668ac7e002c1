import { testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoomService } from '../support/bookings.ts';
import { createHarness, expectError, expectJson, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * The booking hold cap (10 active holds per client) counts an IPv6 client by its /64: an ISP hands a
 * customer the whole network, so a new address per hold must not make a new client.
 */
let h: Harness;
let shop: RoleFixture;
let serviceId: string;

beforeAll(async () => {
  h = await createHarness({ env: { TRUST_PROXY: 'true' } });
  h.clock.set('2026-07-01T08:00:00Z');
  shop = await createRoleFixture(h, 'v6-shop');
  ({ serviceId } = await createRoomService(shop, { slug: 'room', capacity: 50, amountInCents: 1000 }));
});
afterAll(async () => {
  await h.close();
});

let holds = 0;
/** A hold by a new email (so only the per-client cap can refuse it) from `client` behind the one proxy. */
function hold(client: string) {
  holds += 1;
  return h.app.request('/api/v1/public/booking-holds', {
    method: 'POST',
    headers: {
      'x-organization-slug': shop.slug,
      'content-type': 'application/json',
      'x-idempotency-key': `v6-hold-${holds}-0123456789abcdef`,
      'x-forwarded-for': client,
    },
    body: JSON.stringify({
      serviceId,
      startsAt: '2026-07-02T10:00:00+01:00',
      endsAt: '2026-07-02T11:00:00+01:00',
      quantity: 1,
      customerEmail: `guest${holds}@example.com`,
    }),
  });
}

describe(`booking holds from one IPv6 /64 (${testDatabaseKind})`, () => {
  it('refuses the 11th hold from 11 different addresses of one /64 with 429 and Retry-After', async () => {
    for (let index = 1; index <= 10; index++) {
      await expectJson(await hold(`2001:db8:77:1:${index.toString(16)}:${index * 3}::${index}`), 201);
    }
    const eleventh = await hold('2001:db8:77:1:ffff:ee:dd:cc');
    await expectError(eleventh, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another /64 is another client.
    await expectJson(await hold('2001:db8:77:2::1'), 201);
  });
});
