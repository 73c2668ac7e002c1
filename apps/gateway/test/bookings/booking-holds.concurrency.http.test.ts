import { checkCapacity, setClaimClock } from '@commerce/bookings';
import { testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * The capacity invariant (claims never exceed capacity) and hold idempotency
 * (one hold per key) under concurrent requests through the gateway. On PostgreSQL each request has a connection
 * of its own (a pool of 50); PGlite runs them one transaction at a time. Each
 * race ends with `checkCapacity`, which reads the claims back from the database.
 */
let h: Harness;
let shop: RoleFixture;

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function resource(capacity: number): Promise<string> {
  const created = await ok<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-resources', {
      name: 'Boat',
      kind: 'VEHICLE',
      capacity,
    }),
    201,
  );
  return created.id;
}

let slugs = 0;
async function service(resourceId: string): Promise<string> {
  slugs += 1;
  const daily = [{ start: '09:00', end: '17:00' }];
  const created = await ok<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-services', {
      slug: `race-${slugs}`,
      name: 'Race',
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'Europe/Lisbon',
      durations: { choicesMinutes: [60] },
      availability: { weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily } },
      requirements: [{ name: 'Boat', resourceIds: [resourceId], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 1000 },
    }),
    201,
  );
  return created.id;
}

let requests = 0;
/** One hold attempt from a client address of its own (TRUST_PROXY), so no per-client limit interferes. */
function attempt(serviceId: string, key: string, email = `racer${requests}@example.com`) {
  requests += 1;
  const client = `10.${(requests >> 16) & 255}.${(requests >> 8) & 255}.${requests & 255}`;
  return h.app.request('/api/v1/public/booking-holds', {
    method: 'POST',
    headers: {
      'x-organization-slug': shop.slug,
      'content-type': 'application/json',
      'x-idempotency-key': key,
      'x-forwarded-for': client,
    },
    body: JSON.stringify({
      serviceId,
      startsAt: '2026-07-02T10:00:00+01:00',
      endsAt: '2026-07-02T11:00:00+01:00',
      quantity: 1,
      customerEmail: email,
    }),
  });
}

/** Status and error code of each response, and the ids of the holds made. */
async function outcomes(responses: Response[]) {
  const codes: Record<string, number> = {};
  const ids = new Set<string>();
  let replayed = 0;
  for (const response of responses) {
    const body = (await response.json()) as { id?: string; error?: { code: string } };
    const label = `${response.status}${body.error ? ` ${body.error.code}` : ''}`;
    codes[label] = (codes[label] ?? 0) + 1;
    if (body.id) ids.add(body.id);
    if (response.headers.get('idempotent-replayed') === 'true') replayed += 1;
  }
  return { codes, ids, replayed };
}

async function capacityOf(resourceId: string) {
  const report = await checkCapacity(h.database.db, {
    organizationId: shop.organizationId,
    at: h.clock.now(),
  });
  expect(report.overCapacity).toEqual([]);
  expect(report.holds.activeWithoutClaims).toEqual([]);
  expect(report.holds.claimsOfInactiveHolds).toEqual([]);
  expect(report.ok).toBe(true);
  return { report, resource: report.resources.find((row) => row.resourceId === resourceId) };
}

beforeAll(async () => {
  h = await createHarness({ env: { TRUST_PROXY: 'true' }, poolSize: 50 });
  h.clock.set('2026-07-01T08:00:00Z');
  shop = await createRoleFixture(h, 'race-shop');
});
afterAll(async () => {
  await h.close();
});

describe(`concurrent booking holds over HTTP (${testDatabaseKind})`, () => {
  it('gives the last unit of a capacity-1 resource to exactly one of 200 concurrent holds', async () => {
    const boat = await resource(1);
    const serviceId = await service(boat);
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, index) => attempt(serviceId, `race-200-key-${index}-0123456789`)),
    );
    const { codes, ids } = await outcomes(responses);
    expect(codes).toEqual({ '201': 1, '409 CAPACITY_UNAVAILABLE': 199 });
    const { report, resource: row } = await capacityOf(boat);
    expect(row).toMatchObject({ capacity: 1, peak: 1, liveClaims: 1 });
    expect(report.holds.liveClaims).toBe(ids.size);
  }, 120_000);

  it('makes one hold of 50 identical requests with one key: 49 replays; another body with the key is 409', async () => {
    const boat = await resource(5);
    const serviceId = await service(boat);
    const key = 'race-same-key-0123456789';
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => attempt(serviceId, key, 'same@example.com')),
    );
    const { codes, ids, replayed } = await outcomes(responses);
    expect(codes).toEqual({ '201': 50 });
    expect(ids.size).toBe(1);
    expect(replayed).toBe(49);
    const reused = await outcomes([await attempt(serviceId, key, 'other@example.com')]);
    expect(reused.codes).toEqual({ '409 IDEMPOTENCY_KEY_REUSED': 1 });
    const { resource: row } = await capacityOf(boat);
    expect(row).toMatchObject({ peak: 1, liveClaims: 1 });
  }, 60_000);

  it('shares one resource between two services while its capacity is lowered: the invariant holds throughout', async () => {
    const boat = await resource(4);
    const [first, second] = [await service(boat), await service(boat)];
    const lowering = shop.call('owner', 'PATCH', `/merchant/booking-resources/${boat}`, { capacity: 2 });
    const racing = Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        attempt(index % 2 ? first : second, `race-shared-key-${index}-0123456789`),
      ),
    );
    const [patched, responses] = await Promise.all([lowering, racing]);
    const { codes, ids } = await outcomes(responses);
    const created = codes['201'] ?? 0;
    expect(created + (codes['409 CAPACITY_UNAVAILABLE'] ?? 0)).toBe(24);
    // Lowered first: at most 2 fit; refused (its peak was above 2): the 4 units filled.
    if (patched.status === 200) {
      expect(created).toBe(2);
    } else {
      expect(patched.status).toBe(409);
      expect(created).toBe(4);
    }
    const capacity = patched.status === 200 ? 2 : 4;
    const { resource: row, report } = await capacityOf(boat);
    expect(row).toMatchObject({ capacity, peak: created });
    expect(report.holds.liveClaims).toBe(report.holds.active);
    expect(ids.size).toBe(created);

    // Below the peak of live claims: 409 with the conflicts; at the peak: allowed.
    const below = await shop.call('owner', 'PATCH', `/merchant/booking-resources/${boat}`, {
      capacity: created - 1,
    });
    expect(below.status).toBe(409);
    const error = ((await below.json()) as { error: { code: string; details: { conflicts: unknown[] } } })
      .error;
    expect(error.code).toBe('CAPACITY_UNAVAILABLE');
    expect(error.details.conflicts.length).toBeGreaterThan(0);
    await ok(
      await shop.call('owner', 'PATCH', `/merchant/booking-resources/${boat}`, { capacity: created }),
      200,
    );

    // A hand-written INSERT over the capacity is refused by the trigger (SQLSTATE BK001).
    const anyHold = [...ids][0]!;
    // With the request clock as `bookings.now`, as every claiming transaction sets it for the trigger.
    const raw = h.database.db.transaction().execute(async (trx) => {
      await setClaimClock(trx, h.clock.now());
      await trx
        .insertInto('booking_capacity_claims')
        .values({
          organization_id: shop.organizationId,
          id: 'bcl_raw_over',
          resource_id: boat,
          quantity: 1,
          during: '[2026-07-02T09:00Z,2026-07-02T10:00Z)',
          hold_id: anyHold,
        })
        .execute();
    });
    const refused = await raw.then(
      () => undefined,
      (failure: { code?: string }) => failure.code,
    );
    expect(refused).toBe('BK001');
    const after = await capacityOf(boat);
    expect(after.resource).toMatchObject({ capacity: created, peak: created, liveClaims: created });
  }, 60_000);
});
