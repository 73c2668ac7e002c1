import { insertBooking } from '@commerce/bookings/testing';
import { testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;

const NOW = '2026-07-01T08:00:00Z';

beforeAll(async () => {
  h = await createHarness();
  h.clock.set(NOW);
  shop = await createRoleFixture(h, 'bkg-shop', ['bookings:manage']);
  other = await createRoleFixture(h, 'bkg-other', ['bookings:manage']);
});
afterAll(async () => {
  await h.close();
});

interface Detail {
  id: string;
  code: string;
  status: string;
  startsAt: string;
  endsAt: string;
  assigneeUserIds: string[];
  history: { from: string | null; to: string; actor: string }[];
  capacityConflict: boolean | null;
  payment: unknown;
}

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

let sequence = 0;
/** A resource of `capacity` and an ACTIVE service over it, open every day 08:00 to 20:00 (UTC). */
async function service(fixture: RoleFixture, capacity: number, kind = 'SPACE', userId?: string) {
  sequence += 1;
  const resource = await ok<{ id: string }>(
    await fixture.call('owner', 'POST', '/merchant/booking-resources', {
      name: `Room ${sequence}`,
      kind,
      capacity,
      ...(userId ? { userId } : {}),
    }),
    201,
  );
  const daily = [{ start: '08:00', end: '20:00' }];
  const created = await ok<{ id: string }>(
    await fixture.call('owner', 'POST', '/merchant/booking-services', {
      slug: `room-${sequence}`,
      name: 'Room',
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'UTC',
      durations: { choicesMinutes: [60], startIntervalMinutes: 30 },
      availability: {
        weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily, SAT: daily, SUN: daily },
      },
      requirements: [{ name: 'Room', resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 3000 },
    }),
    201,
  );
  return { serviceId: created.id, resourceId: resource.id };
}

function post(
  fixture: RoleFixture,
  actor: 'owner' | 'staffWith' | 'staffWithout',
  path: string,
  body: unknown,
  key?: string,
) {
  return h.app.request(`/api/v1${path}`, {
    method: 'POST',
    headers: {
      'x-organization-slug': fixture.slug,
      authorization: `Bearer ${fixture.users[actor].token}`,
      'content-type': 'application/json',
      ...(key ? { 'x-idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
}

const slot = (hour: number, minutes = 0) => ({
  startsAt: `2026-07-10T${String(hour).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:00Z`,
  endsAt: `2026-07-10T${String(hour + 1).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:00Z`,
});

function createBody(serviceId: string, hour: number, minutes = 0) {
  return {
    serviceId,
    ...slot(hour, minutes),
    quantity: 1,
    customer: { name: 'Ada', email: 'ada@example.test' },
  };
}

/** A resource's peak of live claims (swept: ends first at equal instants) against its capacity, read back. */
async function peakOver(resourceId: string): Promise<{ peak: number; capacity: number }> {
  const db = h.database.db;
  const claims = await db
    .selectFrom('booking_capacity_claims')
    .select(['start_minute', 'end_minute', 'quantity', 'expires_at'])
    .where('resource_id', '=', resourceId)
    .where('released_at', 'is', null)
    .execute();
  const events = claims
    .filter((claim) => claim.expires_at === null || new Date(claim.expires_at) > new Date(NOW))
    .flatMap((claim) => [
      [claim.start_minute, claim.quantity],
      [claim.end_minute, -claim.quantity],
    ])
    .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let running = 0;
  let peak = 0;
  for (const [, delta] of events) {
    running += delta!;
    peak = Math.max(peak, running);
  }
  const resource = await db
    .selectFrom('booking_resources')
    .select('capacity')
    .where('id', '=', resourceId)
    .executeTakeFirstOrThrow();
  return { peak, capacity: resource.capacity };
}

let keys = 0;
const newKey = () => {
  keys += 1;
  return `merchant-booking-key-${keys.toString().padStart(6, '0')}`;
};

describe(`merchant bookings over HTTP (${testDatabaseKind})`, () => {
  it('creates a booking (201, key required, replayed), reads it, lists it, cancels it', async () => {
    const { serviceId, resourceId } = await service(shop, 1);
    await expectError(
      await post(shop, 'owner', '/merchant/bookings', createBody(serviceId, 10)),
      400,
      'VALIDATION_FAILED',
    );
    const key = newKey();
    const created = await post(shop, 'owner', '/merchant/bookings', createBody(serviceId, 10), key);
    const booking = await ok<Detail>(created, 201);
    expect(booking).toMatchObject({ status: 'CONFIRMED', startsAt: '2026-07-10T10:00:00+00:00' });
    const replay = await post(shop, 'owner', '/merchant/bookings', createBody(serviceId, 10), key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as Detail).id).toBe(booking.id);
    await expectError(
      await post(shop, 'owner', '/merchant/bookings', createBody(serviceId, 11), key),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );
    await expectError(
      await post(shop, 'owner', '/merchant/bookings', createBody(serviceId, 10), newKey()),
      409,
      'CAPACITY_UNAVAILABLE',
    );
    const detail = await ok<Detail>(await shop.call('admin', 'GET', `/merchant/bookings/${booking.id}`), 200);
    expect(detail.history).toEqual([
      expect.objectContaining({ from: null, to: 'CONFIRMED', actor: 'MERCHANT' }),
    ]);
    const list = await ok<{ data: { id: string }[] }>(
      await shop.call('owner', 'GET', `/merchant/bookings?resourceId=${resourceId}&status=CONFIRMED`),
      200,
    );
    expect(list.data.map((row) => row.id)).toEqual([booking.id]);
    const cancelled = await ok<Detail>(
      await post(shop, 'owner', `/merchant/bookings/${booking.id}/cancel`, {
        reason: 'Closed',
        notifyCustomer: false,
      }),
      200,
    );
    expect(cancelled.status).toBe('CANCELLED');
    await expectError(
      await post(shop, 'owner', `/merchant/bookings/${booking.id}/cancel`, {}),
      409,
      'INVALID_STATE_TRANSITION',
    );
    const audit = await h.database.db
      .selectFrom('audit_logs')
      .select(['action', 'actor_user_id'])
      .where('target_id', '=', booking.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'booking.created', actor_user_id: shop.users.owner.userId },
      { action: 'booking.cancelled', actor_user_id: shop.users.owner.userId },
    ]);
  });

  it('answers hostile and invalid input with 400 in the envelope', async () => {
    const { serviceId } = await service(shop, 1);
    const cases: unknown[] = [
      { ...createBody(serviceId, 10), extra: 1 },
      { ...createBody(serviceId, 10), startsAt: '2026-07-10T10:00:00' },
      { ...createBody(serviceId, 10), startsAt: '2026-07-10T10:00:30Z' },
      { ...createBody(serviceId, 10), quantity: 0 },
      { ...createBody(serviceId, 10), customer: { name: 'x'.repeat(201), email: 'ada@example.test' } },
      { ...createBody(serviceId, 10), customer: { name: 'Ada', email: 'not-an-email' } },
      { ...createBody(serviceId, 10), serviceId: 'x'.repeat(65) },
      { ...createBody(serviceId, 10), delivery: { method: 'DELIVERY' } },
      { ...createBody(serviceId, 10), endsAt: '2026-07-10T10:30:00Z' },
    ];
    for (const body of cases) {
      await expectError(
        await post(shop, 'owner', '/merchant/bookings', body, newKey()),
        400,
        'VALIDATION_FAILED',
      );
    }
    for (const query of [
      'status=BOGUS',
      'limit=0',
      'order=sideways',
      'from=yesterday',
      'hasPendingChangeRequest=maybe',
    ]) {
      await expectError(
        await shop.call('owner', 'GET', `/merchant/bookings?${query}`),
        400,
        'VALIDATION_FAILED',
      );
    }
    await expectError(
      await shop.call('owner', 'PUT', '/merchant/bookings/bkg_unknown/assignees', {
        userIds: Array.from({ length: 21 }, (_, index) => `usr_${index}`),
      }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('keeps Staff to their assigned bookings (neutral 404) and their mutations to bookings:manage', async () => {
    const { serviceId } = await service(shop, 3);
    const booking = await ok<Detail>(
      await post(shop, 'owner', '/merchant/bookings', createBody(serviceId, 12), newKey()),
      201,
    );
    for (const actor of ['staffWith', 'staffWithout'] as const) {
      await expectError(
        await shop.call(actor, 'GET', `/merchant/bookings/${booking.id}`),
        404,
        'RESOURCE_NOT_FOUND',
      );
      const list = await ok<{ data: unknown[] }>(await shop.call(actor, 'GET', '/merchant/bookings'), 200);
      expect(list.data).toEqual([]);
    }
    await expectError(
      await post(shop, 'staffWith', `/merchant/bookings/${booking.id}/cancel`, {}),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await post(shop, 'staffWithout', `/merchant/bookings/${booking.id}/cancel`, {}),
      403,
      'FORBIDDEN',
    );
    await expectError(
      await post(shop, 'staffWithout', '/merchant/bookings', createBody(serviceId, 13), newKey()),
      403,
      'FORBIDDEN',
    );
    await expectError(await shop.call('outsider', 'GET', '/merchant/bookings'), 403, 'FORBIDDEN');
    await expectError(await shop.call('anonymous', 'GET', '/merchant/bookings'), 401, 'UNAUTHENTICATED');
    // Another organization's members never see it.
    await expectError(
      await other.call('owner', 'GET', `/merchant/bookings/${booking.id}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await post(other, 'owner', `/merchant/bookings/${booking.id}/cancel`, {}),
      404,
      'RESOURCE_NOT_FOUND',
    );

    await expectError(
      await shop.call('owner', 'PUT', `/merchant/bookings/${booking.id}/assignees`, {
        userIds: [other.users.owner.userId],
      }),
      400,
      'VALIDATION_FAILED',
    );
    const assigned = await ok<Detail>(
      await shop.call('owner', 'PUT', `/merchant/bookings/${booking.id}/assignees`, {
        userIds: [shop.users.staffWith.userId, shop.users.staffWithout.userId],
      }),
      200,
    );
    expect(assigned.assigneeUserIds).toEqual([shop.users.staffWith.userId, shop.users.staffWithout.userId]);
    await ok<Detail>(await shop.call('staffWithout', 'GET', `/merchant/bookings/${booking.id}`), 200);
    await expectError(
      await post(shop, 'staffWithout', `/merchant/bookings/${booking.id}/cancel`, {}),
      403,
      'FORBIDDEN',
    );
    const moved = await ok<Detail>(
      await post(shop, 'staffWith', `/merchant/bookings/${booking.id}/reschedule`, slot(14)),
      200,
    );
    expect(moved.startsAt).toBe('2026-07-10T14:00:00+00:00');
    const audit = await h.database.db
      .selectFrom('audit_logs')
      .select(['action', 'actor_user_id'])
      .where('target_id', '=', booking.id)
      .where('action', '=', 'booking.rescheduled')
      .execute();
    expect(audit).toEqual([{ action: 'booking.rescheduled', actor_user_id: shop.users.staffWith.userId }]);

    // A STAFF resource of a user assigns every booking that claims it.
    const guided = await service(shop, 1, 'STAFF', shop.users.staffWithout.userId);
    const guidedBooking = await ok<Detail>(
      await post(shop, 'owner', '/merchant/bookings', createBody(guided.serviceId, 9), newKey()),
      201,
    );
    await ok<Detail>(await shop.call('staffWithout', 'GET', `/merchant/bookings/${guidedBooking.id}`), 200);
    await expectError(
      await shop.call('staffWith', 'GET', `/merchant/bookings/${guidedBooking.id}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('approves and declines requests; a full slot is 409 CAPACITY_UNAVAILABLE with capacityConflict shown', async () => {
    const { serviceId, resourceId } = await service(shop, 1);
    const at = new Date(NOW);
    const request = () =>
      insertBooking(h.database.db, {
        organizationId: shop.organizationId,
        serviceId,
        resourceId,
        status: 'REQUESTED',
        startsAt: new Date('2026-07-10T15:00:00Z'),
        endsAt: new Date('2026-07-10T16:00:00Z'),
        at,
      });
    const first = await request();
    const second = await request();
    const third = await request();
    const approved = await ok<Detail>(
      await post(shop, 'owner', `/merchant/bookings/${first}/approve`, { note: 'See you' }),
      200,
    );
    expect(approved.status).toBe('CONFIRMED');
    const conflicted = await ok<Detail>(await shop.call('owner', 'GET', `/merchant/bookings/${second}`), 200);
    expect(conflicted.capacityConflict).toBe(true);
    await expectError(
      await post(shop, 'owner', `/merchant/bookings/${second}/approve`, {}),
      409,
      'CAPACITY_UNAVAILABLE',
    );
    const declined = await ok<Detail>(
      await post(shop, 'owner', `/merchant/bookings/${second}/decline`, { reason: 'Full' }),
      200,
    );
    expect(declined.status).toBe('DECLINED');
    await expectError(
      await post(shop, 'owner', `/merchant/bookings/${third}/cancel`, {}),
      409,
      'INVALID_STATE_TRANSITION',
    );
    await expectError(
      await post(shop, 'owner', `/merchant/bookings/${third}/reschedule`, slot(17)),
      409,
      'INVALID_STATE_TRANSITION',
    );
    await expectError(
      await post(shop, 'owner', `/merchant/bookings/${first}/change-requests/bcr_unknown/approve`, {}),
      404,
      'RESOURCE_NOT_FOUND',
    );
    // The optional key replays a decline.
    const key = newKey();
    const once = await post(shop, 'owner', `/merchant/bookings/${third}/decline`, {}, key);
    expect(once.status).toBe(200);
    const twice = await post(shop, 'owner', `/merchant/bookings/${third}/decline`, {}, key);
    expect(twice.status).toBe(200);
    expect(twice.headers.get('idempotent-replayed')).toBe('true');
    expect(await peakOver(resourceId)).toEqual({ peak: 1, capacity: 1 });
  });
});

describe(`merchant bookings under concurrency (${testDatabaseKind})`, () => {
  it('approves at most one of two requests for one capacity-1 slot, 20 times over', async () => {
    const { serviceId, resourceId } = await service(shop, 1);
    for (let round = 0; round < 20; round += 1) {
      const startsAt = new Date(Date.parse('2026-07-12T08:00:00Z') + round * 60 * 60_000);
      const endsAt = new Date(startsAt.getTime() + 60 * 60_000);
      const ids = [];
      for (let index = 0; index < 2; index += 1) {
        ids.push(
          await insertBooking(h.database.db, {
            organizationId: shop.organizationId,
            serviceId,
            resourceId,
            status: 'REQUESTED',
            startsAt,
            endsAt,
            at: new Date(NOW),
          }),
        );
      }
      const responses = await Promise.all(
        ids.map((id) => post(shop, 'owner', `/merchant/bookings/${id}/approve`, {})),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses, `round ${round}`).toEqual([200, 409]);
      const refused = responses.find((response) => response.status === 409)!;
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('CAPACITY_UNAVAILABLE');
      expect(await peakOver(resourceId)).toEqual({ peak: 1, capacity: 1 });
    }
  });

  it('20 concurrent creates with one key make one booking and 19 replays', async () => {
    const { serviceId, resourceId } = await service(shop, 1);
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(shop, 'owner', '/merchant/bookings', createBody(serviceId, 18), key),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    const bodies = (await Promise.all(responses.map((response) => response.json()))) as Detail[];
    expect(new Set(bodies.map((body) => body.id)).size).toBe(1);
    expect(
      responses.filter((response) => response.headers.get('idempotent-replayed') === 'true'),
    ).toHaveLength(19);
    const rows = await h.database.db
      .selectFrom('bookings')
      .select('id')
      .where('organization_id', '=', shop.organizationId)
      .where('service_id', '=', serviceId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await peakOver(resourceId)).toEqual({ peak: 1, capacity: 1 });
  });

  it('moves a booking by 30 minutes on capacity 1; a reschedule racing a hold for the slot: exactly one wins, the loser keeps its state', async () => {
    const { serviceId, resourceId } = await service(shop, 1);
    const booking = await ok<Detail>(
      await post(shop, 'owner', '/merchant/bookings', createBody(serviceId, 10, 0), newKey()),
      201,
    );
    const moved = await ok<Detail>(
      await post(shop, 'owner', `/merchant/bookings/${booking.id}/reschedule`, slot(10, 30)),
      200,
    );
    expect(moved.startsAt).toBe('2026-07-10T10:30:00+00:00');
    for (let round = 0; round < 10; round += 1) {
      const hour = 12 + (round % 7);
      const target = slot(hour, 0);
      const current = await ok<Detail>(
        await shop.call('owner', 'GET', `/merchant/bookings/${booking.id}`),
        200,
      );
      const [reschedule, hold] = await Promise.all([
        post(shop, 'owner', `/merchant/bookings/${booking.id}/reschedule`, target),
        h.app.request('/api/v1/public/booking-holds', {
          method: 'POST',
          headers: {
            'x-organization-slug': shop.slug,
            'content-type': 'application/json',
            'x-idempotency-key': newKey(),
          },
          body: JSON.stringify({
            serviceId,
            ...target,
            quantity: 1,
            customerEmail: `racer${round}@example.test`,
          }),
        }),
      ]);
      expect([reschedule.status === 200, hold.status === 201].filter(Boolean), `round ${round}`).toHaveLength(
        1,
      );
      const after = await ok<Detail>(
        await shop.call('owner', 'GET', `/merchant/bookings/${booking.id}`),
        200,
      );
      if (reschedule.status === 200) {
        expect(after.startsAt).toBe(target.startsAt.replace('Z', '+00:00'));
        const released = (await hold.json()) as { error: { code: string } };
        expect(released.error.code).toBe('CAPACITY_UNAVAILABLE');
      } else {
        expect(reschedule.status).toBe(409);
        expect(after.startsAt).toBe(current.startsAt);
        // The hold took the slot; release it so the next round starts clean.
        const held = (await hold.json()) as { id: string };
        await h.database.db
          .updateTable('booking_holds')
          .set({ status: 'RELEASED' })
          .where('id', '=', held.id)
          .execute();
        await h.database.db
          .updateTable('booking_capacity_claims')
          .set({ released_at: new Date(NOW) })
          .where('hold_id', '=', held.id)
          .execute();
      }
      expect(await peakOver(resourceId)).toEqual({ peak: 1, capacity: 1 });
    }
  });
});
