import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * Availability searches pay for their size: days times resources, out of a budget per store and
 * client (RATE_LIMIT_AVAILABILITY_SEARCH_UNITS_PER_MINUTE), a /trpc batch for each search in it;
 * an answer can be paged with `limit`, and a large one is compressed.
 */
let h: Harness;
let shop: RoleFixture;
let small: string;
let large: string;

const EVERY_DAY = (() => {
  const hours = [{ start: '09:00', end: '17:00' }];
  return { MON: hours, TUE: hours, WED: hours, THU: hours, FRI: hours, SAT: hours, SUN: hours };
})();

async function service(slug: string, resources: number): Promise<string> {
  const resourceIds: string[] = [];
  for (let index = 0; index < resources; index += 1) {
    const response = await shop.call('owner', 'POST', '/merchant/booking-resources', {
      name: `${slug} ${index}`,
      kind: 'SPACE',
      capacity: 1,
    });
    expect(response.status).toBe(201);
    resourceIds.push(((await response.json()) as { id: string }).id);
  }
  const response = await shop.call('owner', 'POST', '/merchant/booking-services', {
    slug,
    name: slug,
    status: 'ACTIVE',
    periodMode: 'FIXED_DURATION',
    timezone: 'UTC',
    durations: { choicesMinutes: [60], startIntervalMinutes: 30 },
    availability: { weeklyHours: EVERY_DAY, maxAdvanceDays: 365 },
    partySize: { min: 1, max: 1 },
    requirements: [
      { name: 'Room', resourceIds, units: { mode: 'PER_BOOKING', count: 1 }, selection: 'OPTIONAL' },
    ],
    pricing: { basis: 'FLAT', amountInCents: 1000 },
    checkout: { paymentMode: 'PAY_NOW' },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** 20 days (20 units a resource). */
const window = (days: number) => ({
  startsAt: '2026-04-01T00:00:00Z',
  endsAt: new Date(Date.parse('2026-04-01T00:00:00Z') + days * 86_400_000).toISOString().replace('.000', ''),
  timezone: 'UTC',
  quantity: 1,
});

const search = (client: string, body: unknown, headers: Record<string, string> = {}) =>
  shop.call('anonymous', 'POST', '/public/booking-availability/search', body, {
    'x-forwarded-for': client,
    ...headers,
  });

beforeAll(async () => {
  h = await createHarness({
    env: { TRUST_PROXY: 'true', RATE_LIMIT_AVAILABILITY_SEARCH_UNITS_PER_MINUTE: '1000' },
  });
  h.clock.set('2026-03-01T12:00:00Z');
  shop = await createRoleFixture(h, 'search-budget');
  small = await service('small', 5);
  large = await service('large', 20);
});
afterAll(async () => {
  await h.close();
});

describe('the availability search budget', () => {
  it('charges days times resources: 10 searches of 20 days over 5 resources spend 1,000 units; the 11th is 429 with Retry-After, another client is unaffected', async () => {
    for (let index = 0; index < 10; index += 1)
      expect((await search('203.0.113.1', { serviceId: small, ...window(20) })).status).toBe(200);
    const refused = await search('203.0.113.1', { serviceId: small, ...window(20) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await errorOf(refused)).code).toBe('RATE_LIMIT_EXCEEDED');
    // A cheap search (1 day, 5 units) of the same client is refused too: the budget is spent.
    expect((await search('203.0.113.1', { serviceId: small, ...window(1) })).status).toBe(429);
    expect((await search('203.0.113.2', { serviceId: small, ...window(20) })).status).toBe(200);
  });

  it('charges a /trpc batch for each search in it: a batch of 10 spends what 10 searches do', async () => {
    const body = Object.fromEntries(
      Array.from({ length: 10 }, (_, index) => [index, { serviceId: small, ...window(20) }]),
    );
    const batch = await h.app.request(
      `/trpc/${Array(10).fill('public.bookingAvailability.search').join(',')}?batch=1`,
      {
        method: 'POST',
        headers: {
          'x-organization-slug': shop.slug,
          'content-type': 'application/json',
          'x-forwarded-for': '203.0.113.3',
        },
        body: JSON.stringify(body),
      },
    );
    expect(batch.status).toBe(200);
    expect(await batch.json()).toHaveLength(10);
    expect((await search('203.0.113.3', { serviceId: small, ...window(1) })).status).toBe(429);
  });
});

describe('bounded and compressed answers', () => {
  it('pages with limit: at most `limit` slots, truncated, and nextStartsAt where the next page begins', async () => {
    const first = await search('203.0.113.10', { serviceId: small, ...window(2), limit: 3 });
    expect(first.status).toBe(200);
    const page = (await first.json()) as {
      slots: { startsAt: string }[];
      truncated: boolean;
      nextStartsAt: string | null;
    };
    expect(page.slots.map((slot) => slot.startsAt)).toEqual([
      '2026-04-01T09:00:00+00:00',
      '2026-04-01T09:30:00+00:00',
      '2026-04-01T10:00:00+00:00',
    ]);
    expect(page).toMatchObject({ truncated: true, nextStartsAt: '2026-04-01T10:30:00+00:00' });
    const next = await search('203.0.113.10', {
      serviceId: small,
      ...window(2),
      startsAt: page.nextStartsAt,
      limit: 1000,
    });
    const rest = (await next.json()) as { slots: unknown[]; truncated: boolean; nextStartsAt: string | null };
    // Two days of 15 starts (09:00 to 16:00), three of them on the first page.
    expect(rest).toMatchObject({ truncated: false, nextStartsAt: null });
    expect(rest.slots).toHaveLength(27);
    // Without limit the answer has its plain shape: no nextStartsAt.
    const plain = (await (await search('203.0.113.10', { serviceId: small, ...window(2) })).json()) as object;
    expect(Object.keys(plain).sort()).toEqual(['serviceId', 'slots', 'truncated']);
  });

  it('compresses a large answer when the client accepts gzip; the same JSON either way', async () => {
    const body = { serviceId: large, ...window(31) };
    const compressed = await search('203.0.113.20', body, { 'accept-encoding': 'gzip' });
    expect(compressed.status).toBe(200);
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    expect(compressed.headers.get('vary')).toContain('Accept-Encoding');
    const zipped = Buffer.from(await compressed.arrayBuffer());
    const plain = await search('203.0.113.21', body);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(gunzipSync(zipped).toString('utf8')).toBe(text);
    // 31 days of 15 starts, 20 resource options each: hundreds of kilobytes, a small part of it zipped.
    expect(text.length).toBeGreaterThan(300_000);
    expect(zipped.length * 10).toBeLessThan(text.length);
  });

  it('leaves other answers uncompressed', async () => {
    const response = await h.app.request('/api/v1/public/organization', {
      headers: {
        'x-organization-slug': shop.slug,
        'accept-encoding': 'gzip',
        'x-forwarded-for': '203.0.113.30',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBeNull();
  });
});
