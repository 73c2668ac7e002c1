import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let serviceId: string;
let otherServiceId: string;

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function activeService(fixture: RoleFixture, capacity: number): Promise<string> {
  const resource = await ok<{ id: string }>(
    await fixture.call('owner', 'POST', '/merchant/booking-resources', {
      name: 'Room',
      kind: 'SPACE',
      capacity,
    }),
    201,
  );
  const daily = [{ start: '09:00', end: '17:00' }];
  const service = await ok<{ id: string }>(
    await fixture.call('owner', 'POST', '/merchant/booking-services', {
      slug: 'room',
      name: 'Room',
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'Europe/Lisbon',
      durations: { choicesMinutes: [60] },
      availability: { weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily } },
      requirements: [{ name: 'Room', resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 3000 },
    }),
    201,
  );
  return service.id;
}

beforeAll(async () => {
  h = await createHarness();
  h.clock.set('2026-07-01T08:00:00Z');
  shop = await createRoleFixture(h, 'hld-shop');
  other = await createRoleFixture(h, 'hld-other');
  serviceId = await activeService(shop, 1);
  otherServiceId = await activeService(other, 1);
});
afterAll(async () => {
  await h.close();
});

function holdRequest(
  slug: string,
  body: unknown,
  key?: string,
  method = 'POST',
  path = '/public/booking-holds',
) {
  return h.app.request(`/api/v1${path}`, {
    method,
    headers: {
      'x-organization-slug': slug,
      'content-type': 'application/json',
      ...(key ? { 'x-idempotency-key': key } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const slot = (day: string, hour: string) => ({
  serviceId,
  startsAt: `2026-07-${day}T${hour}:00:00+01:00`,
  endsAt: `2026-07-${day}T${String(Number(hour) + 1).padStart(2, '0')}:00:00+01:00`,
  quantity: 1,
  customerEmail: 'guest@example.com',
});

describe('public booking holds over HTTP', () => {
  it('creates a hold (201), replays it for the same key and refuses the key for another body', async () => {
    const missing = await expectError(
      await holdRequest(shop.slug, slot('02', '10')),
      400,
      'VALIDATION_FAILED',
    );
    expect(missing.details?.issues?.[0]?.path).toBe('headers.x-idempotency-key');
    const created = await holdRequest(shop.slug, slot('02', '10'), 'http-hold-key-000000001');
    const hold = await ok<{ id: string; status: string; startsAt: string; expiresInSeconds: number }>(
      created,
      201,
    );
    expect(hold).toMatchObject({
      status: 'ACTIVE',
      startsAt: '2026-07-02T10:00:00+01:00',
      expiresInSeconds: 1800,
    });
    const replay = await holdRequest(shop.slug, slot('02', '10'), 'http-hold-key-000000001');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await ok<{ id: string }>(replay, 201)).id).toBe(hold.id);
    await expectError(
      await holdRequest(shop.slug, slot('02', '11'), 'http-hold-key-000000001'),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );
    await expectError(
      await holdRequest(shop.slug, slot('02', '10'), 'http-hold-key-000000002'),
      409,
      'CAPACITY_UNAVAILABLE',
    );
  });

  it('answers bad bodies with 400, unoffered intervals with 409 BOOKING_SLOT_UNAVAILABLE, and foreign services with 404', async () => {
    for (const body of [
      { ...slot('03', '10'), delivery: { method: 'DELIVERY' } },
      { ...slot('03', '10'), startsAt: '2026-07-03T10:00:00' },
      { ...slot('03', '10'), customerEmail: 'not-an-email' },
      { ...slot('03', '10'), quantity: 0 },
    ]) {
      await expectError(
        await holdRequest(shop.slug, body, 'http-hold-key-bad-0001'),
        400,
        'VALIDATION_FAILED',
      );
    }
    const closed = await expectError(
      await holdRequest(shop.slug, slot('04', '10'), 'http-hold-key-saturday'),
      409,
      'BOOKING_SLOT_UNAVAILABLE',
    );
    expect(closed.details).toMatchObject({ reason: 'OUTSIDE_HOURS' });
    await expectError(
      await holdRequest(
        shop.slug,
        { ...slot('03', '10'), serviceId: otherServiceId },
        'http-hold-key-foreign-1',
      ),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('releases with the hold’s own key only: 204 twice, 404 for another key or store, 400 without a key', async () => {
    const hold = await ok<{ id: string }>(
      await holdRequest(shop.slug, slot('06', '10'), 'http-hold-key-release-1'),
      201,
    );
    const path = `/public/booking-holds/${hold.id}`;
    await expectError(
      await holdRequest(shop.slug, undefined, undefined, 'DELETE', path),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await holdRequest(shop.slug, undefined, 'http-hold-key-someone-else', 'DELETE', path),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await holdRequest(other.slug, undefined, 'http-hold-key-release-1', 'DELETE', path),
      404,
      'RESOURCE_NOT_FOUND',
    );
    for (let attempt = 0; attempt < 2; attempt++) {
      const released = await holdRequest(shop.slug, undefined, 'http-hold-key-release-1', 'DELETE', path);
      expect(released.status).toBe(204);
      expect(await released.text()).toBe('');
    }
    // The unit is free again.
    await ok(await holdRequest(shop.slug, slot('06', '10'), 'http-hold-key-release-2'), 201);
  });
});
