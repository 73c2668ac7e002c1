import { hashToken, newId, newToken } from '@commerce/core';
import { signInForTest } from '@commerce/customers/testing';
import type { BookingStatus } from '@commerce/db';
import { testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * Customer and guest booking routes (docs/bookings.md "Customer and guest routes") through the
 * gateway. Bookings are written into the tables as conversion leaves them.
 */

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;

const NOW = '2026-07-01T08:00:00Z';
const START = new Date('2026-07-10T09:00:00Z'); // 10:00 in Lisbon
const END = new Date('2026-07-10T10:00:00Z');
const HOUR = 3_600_000;
const later = (base: Date, ms: number) => new Date(base.getTime() + ms);

type Mode = 'SELF_SERVICE' | 'REQUEST' | 'NONE';
interface Service {
  id: string;
  requirementId: string;
  resourceId: string;
}
const services = new Map<string, Service>();

async function ok<T>(response: Response, status = 200): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

const daily = [{ start: '08:00', end: '20:00' }];
async function serviceOf(fixture: RoleFixture, mode: Mode, cutoffMinutes = 0): Promise<Service> {
  const key = `${fixture.slug}:${mode}:${cutoffMinutes}`;
  const known = services.get(key);
  if (known) return known;
  const resource = await ok<{ id: string }>(
    await fixture.call('owner', 'POST', '/merchant/booking-resources', {
      name: 'Room',
      kind: 'SPACE',
      capacity: 1,
    }),
    201,
  );
  const service = await ok<{ id: string; requirements: { id: string }[] }>(
    await fixture.call('owner', 'POST', '/merchant/booking-services', {
      slug: `room-${mode.toLowerCase().replace('_', '-')}-${cutoffMinutes}`,
      name: 'Room',
      status: 'ACTIVE',
      periodMode: 'EXACT_RANGE',
      timezone: 'Europe/Lisbon',
      durations: { minMinutes: 30, maxMinutes: 480, startIntervalMinutes: 30 },
      availability: {
        weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily, SAT: daily, SUN: daily },
      },
      requirements: [{ name: 'Room', resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 3000 },
      policies: { cancellation: { mode, cutoffMinutes }, reschedule: { mode, cutoffMinutes } },
    }),
    201,
  );
  const created = { id: service.id, requirementId: service.requirements[0]!.id, resourceId: resource.id };
  services.set(key, created);
  return created;
}

let codes = 0;
async function booking(
  fixture: RoleFixture,
  service: Service,
  input: {
    customerEmail?: string;
    customerId?: string;
    status?: BookingStatus;
    startsAt?: Date;
    endsAt?: Date;
  } = {},
): Promise<string> {
  const db = h.database.db;
  const id = newId('bkg');
  const startsAt = input.startsAt ?? START;
  const endsAt = input.endsAt ?? END;
  const status = input.status ?? 'CONFIRMED';
  codes += 1;
  await db
    .insertInto('bookings')
    .values({
      organization_id: fixture.organizationId,
      id,
      code: `BK-HTTP${String(codes).padStart(4, '0')}`,
      service_id: service.id,
      hold_id: null,
      status,
      starts_at: startsAt,
      ends_at: endsAt,
      quantity: 1,
      timezone: 'Europe/Lisbon',
      customer_id: input.customerId ?? null,
      customer_name: 'Ana',
      customer_email: input.customerEmail ?? 'ana@example.test',
      customer_phone: null,
      customer_note: 'merchant-only note',
      billing_address: null,
      delivery: null,
      snapshot: JSON.stringify({}),
      currency: 'EUR',
      subtotal_in_cents: 3000,
      total_in_cents: 3000,
      amount_due_now_in_cents: 0,
      sales_record_id: null,
      payment_expires_at: null,
      request_expires_at: null,
      voided_at: null,
      group_id: null,
      created_at: h.clock.now(),
      updated_at: h.clock.now(),
    })
    .execute();
  await db
    .insertInto('booking_allocations')
    .values({
      organization_id: fixture.organizationId,
      booking_id: id,
      requirement_id: service.requirementId,
      resource_id: service.resourceId,
      quantity: 1,
      selection: 'AUTO',
      position: 0,
    })
    .execute();
  if (status === 'CONFIRMED') {
    await db
      .insertInto('booking_capacity_claims')
      .values({
        organization_id: fixture.organizationId,
        id: newId('bcl'),
        resource_id: service.resourceId,
        quantity: 1,
        during: `[${startsAt.toISOString()},${endsAt.toISOString()})`,
        start_minute: 0,
        end_minute: 0,
        expires_at: null,
        released_at: null,
        hold_id: null,
        booking_id: id,
        blackout_id: null,
        created_at: h.clock.now(),
      })
      .execute();
  }
  return id;
}

/** An `m1_` as the booking's emails carry it, expiring 30 days after `endsAt`. */
async function managementToken(fixture: RoleFixture, bookingId: string, endsAt = END): Promise<string> {
  const token = newToken('bookingManagement');
  await h.database.db
    .insertInto('booking_management_tokens')
    .values({
      token_hash: hashToken(token),
      organization_id: fixture.organizationId,
      booking_id: bookingId,
      expires_at: later(endsAt, 30 * 24 * HOUR),
      created_at: h.clock.now(),
    })
    .execute();
  return token;
}

beforeAll(async () => {
  h = await createHarness({ env: { HOSTED_CHECKOUT_URL: 'https://checkout.example' } });
  h.clock.set(NOW);
  shop = await createRoleFixture(h, 'cbk-shop');
  other = await createRoleFixture(h, 'cbk-other');
});
afterAll(async () => {
  await h.close();
});

const signIn = async (email: string, organizationId = shop.organizationId) =>
  (await signInForTest(h.database.db, organizationId, email, h.clock.now())).token;

function as(token: string | null, slug = shop.slug) {
  return (method: string, path: string, body?: unknown) =>
    h.app.request(`/api/v1${path}`, {
      method,
      headers: {
        'x-organization-slug': slug,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
}
const guest = (slug = shop.slug) => as(null, slug);

interface Detail {
  id: string;
  status: string;
  startsAt: string;
  actions: { cancel: string; reschedule: string; cancelCutoffAt: string | null };
  changeRequests: { kind: string; status: string; startsAt: string | null }[];
}
interface Result {
  outcome: 'APPLIED' | 'REQUESTED';
  booking: Detail;
}

describe('the customer account’s bookings', () => {
  it('lists and reads the customer’s bookings; others are the neutral 404', async () => {
    const service = await serviceOf(shop, 'REQUEST');
    const call = as(await signIn('ana@example.test'));
    const mine = await booking(shop, service);
    const theirs = await booking(shop, service, {
      customerEmail: 'bruno@example.test',
      startsAt: later(START, 24 * HOUR),
      endsAt: later(END, 24 * HOUR),
    });
    const page = await ok<{ data: { id: string; actions: { cancel: string } }[]; nextCursor: string | null }>(
      await call('GET', '/customer/account/bookings?timeframe=UPCOMING&status=CONFIRMED,REQUESTED&limit=50'),
    );
    expect(page.data.map((entry) => entry.id)).toContain(mine);
    expect(page.data.map((entry) => entry.id)).not.toContain(theirs);
    const detail = await ok<Detail & { customerNote?: unknown; history?: unknown }>(
      await call('GET', `/customer/account/bookings/${mine}`),
    );
    expect(detail).toMatchObject({ id: mine, status: 'CONFIRMED', actions: { cancel: 'REQUEST' } });
    expect(detail.customerNote).toBeUndefined();
    expect(detail.history).toBeUndefined();

    await expectError(await call('GET', `/customer/account/bookings/${theirs}`), 404, 'RESOURCE_NOT_FOUND');
    await expectError(await call('GET', '/customer/account/bookings/bkg_nope'), 404, 'RESOURCE_NOT_FOUND');
    await expectError(
      await call('POST', `/customer/account/bookings/${theirs}/cancel-request`, {}),
      404,
      'RESOURCE_NOT_FOUND',
    );
    // The same email in another store is another customer.
    const elsewhere = as(await signIn('ana@example.test', other.organizationId), other.slug);
    await expectError(
      await elsewhere('GET', `/customer/account/bookings/${mine}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(await guest()('GET', '/customer/account/bookings'), 401, 'UNAUTHENTICATED');
    await expectError(
      await call('GET', '/customer/account/bookings?timeframe=SOON'),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(await call('GET', '/customer/account/bookings?status=LOST'), 400, 'VALIDATION_FAILED');
  });

  it('cancel-request applies under SELF_SERVICE and requests under REQUEST; NONE is 409 POLICY', async () => {
    const call = as(await signIn('carla@example.test'));
    const selfService = await booking(shop, await serviceOf(shop, 'SELF_SERVICE', 60), {
      customerEmail: 'carla@example.test',
    });
    const applied = await ok<Result>(
      await call('POST', `/customer/account/bookings/${selfService}/cancel-request`, {
        reason: 'Plans changed',
      }),
    );
    expect(applied).toMatchObject({ outcome: 'APPLIED', booking: { status: 'CANCELLED' } });

    const requestable = await booking(shop, await serviceOf(shop, 'REQUEST'), {
      customerEmail: 'carla@example.test',
      startsAt: later(START, 2 * 24 * HOUR),
      endsAt: later(END, 2 * 24 * HOUR),
    });
    const requested = await ok<Result>(
      await call('POST', `/customer/account/bookings/${requestable}/cancel-request`, {}),
    );
    expect(requested).toMatchObject({ outcome: 'REQUESTED', booking: { status: 'CONFIRMED' } });
    expect(requested.booking.changeRequests).toEqual([
      expect.objectContaining({ kind: 'CANCEL', status: 'PENDING' }),
    ]);
    const pending = await errorOf(
      await call('POST', `/customer/account/bookings/${requestable}/reschedule-request`, {
        startsAt: '2026-07-15T10:00:00+01:00',
        endsAt: '2026-07-15T11:00:00+01:00',
      }),
    );
    expect(pending).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { reason: 'CHANGE_REQUEST_PENDING' },
    });

    const refused = await booking(shop, await serviceOf(shop, 'NONE'), {
      customerEmail: 'carla@example.test',
      startsAt: later(START, 3 * 24 * HOUR),
      endsAt: later(END, 3 * 24 * HOUR),
    });
    const response = await call('POST', `/customer/account/bookings/${refused}/cancel-request`, {});
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { reason: 'POLICY' },
    });
  });

  it('reschedule-request validates its body: 400 for the wrong duration, a bad instant, unknown keys, long reasons', async () => {
    const call = as(await signIn('dora@example.test'));
    const id = await booking(shop, await serviceOf(shop, 'REQUEST'), {
      customerEmail: 'dora@example.test',
      startsAt: later(START, 4 * 24 * HOUR),
      endsAt: later(END, 4 * 24 * HOUR),
    });
    const path = `/customer/account/bookings/${id}/reschedule-request`;
    const wrong = await expectError(
      await call('POST', path, {
        startsAt: '2026-07-20T10:00:00+01:00',
        endsAt: '2026-07-20T12:00:00+01:00',
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(wrong.details?.issues?.[0]?.path).toBe('endsAt');
    for (const body of [
      { startsAt: '2026-07-20T10:00:00', endsAt: '2026-07-20T11:00:00+01:00' },
      { startsAt: '2026-07-20T10:00:30+01:00', endsAt: '2026-07-20T11:00:30+01:00' },
      { startsAt: '2026-07-20T11:00:00+01:00', endsAt: '2026-07-20T10:00:00+01:00' },
      { startsAt: '2026-07-20T10:00:00+01:00', endsAt: '2026-07-20T11:00:00+01:00', extra: true },
      { startsAt: '2026-07-20T10:00:00+01:00', endsAt: '2026-07-20T11:00:00+01:00', reason: 'x'.repeat(501) },
      {},
    ]) {
      await expectError(await call('POST', path, body), 400, 'VALIDATION_FAILED');
    }
    const outside = await errorOf(
      await call('POST', path, {
        startsAt: '2026-07-20T21:00:00+01:00',
        endsAt: '2026-07-20T22:00:00+01:00',
      }),
    );
    expect(outside).toMatchObject({ code: 'BOOKING_SLOT_UNAVAILABLE', details: { reason: 'OUTSIDE_HOURS' } });
    const moved = await ok<Result>(
      await call('POST', path, {
        startsAt: '2026-07-20T10:00:00+01:00',
        endsAt: '2026-07-20T11:00:00+01:00',
      }),
    );
    expect(moved.outcome).toBe('REQUESTED');
    expect(moved.booking.changeRequests[0]).toMatchObject({
      kind: 'RESCHEDULE',
      startsAt: '2026-07-20T10:00:00+01:00',
    });
  });
});

describe('the account routes’ optional idempotency key', () => {
  it('replays the same key and body, refuses another body with 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const token = await signIn('erin@example.test');
    const id = await booking(shop, await serviceOf(shop, 'REQUEST'), {
      customerEmail: 'erin@example.test',
      startsAt: later(START, 9 * 24 * HOUR),
      endsAt: later(END, 9 * 24 * HOUR),
    });
    const send = (body: unknown) =>
      h.app.request(`/api/v1/customer/account/bookings/${id}/cancel-request`, {
        method: 'POST',
        headers: {
          'x-organization-slug': shop.slug,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-idempotency-key': 'cancel-request-key-0001',
        },
        body: JSON.stringify(body),
      });
    const first = await send({ reason: 'Ill' });
    const result = await ok<Result>(first);
    expect(result.outcome).toBe('REQUESTED');
    const again = await send({ reason: 'Ill' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await ok<Result>(again)).toEqual(result);
    await expectError(await send({ reason: 'Other' }), 409, 'IDEMPOTENCY_KEY_REUSED');
  });
});

describe('guest management links', () => {
  it('reads and changes a booking once; the same request replays, another is 409 TOKEN_CONSUMED', async () => {
    const id = await booking(shop, await serviceOf(shop, 'REQUEST'), {
      startsAt: later(START, 5 * 24 * HOUR),
      endsAt: later(END, 5 * 24 * HOUR),
    });
    const token = await managementToken(shop, id, later(END, 5 * 24 * HOUR));
    const call = guest();
    const detail = await ok<Detail>(await call('GET', `/customer/bookings/${token}`));
    expect(detail).toMatchObject({ id, actions: { cancel: 'REQUEST', reschedule: 'REQUEST' } });

    const body = { reason: 'Cannot come' };
    const first = await call('POST', `/customer/bookings/${token}/cancel-request`, body);
    const result = await ok<Result>(first);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(result).toMatchObject({
      outcome: 'REQUESTED',
      booking: { actions: { cancel: 'NONE', reschedule: 'NONE' } },
    });

    const again = await call('POST', `/customer/bookings/${token}/cancel-request`, { reason: 'Cannot come' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await ok<Result>(again)).toEqual(result);

    const otherBody = await errorOf(
      await call('POST', `/customer/bookings/${token}/cancel-request`, { reason: 'Something else' }),
    );
    expect(otherBody).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { reason: 'TOKEN_CONSUMED' },
    });
    const otherRoute = await call('POST', `/customer/bookings/${token}/reschedule-request`, {
      startsAt: '2026-07-21T10:00:00+01:00',
      endsAt: '2026-07-21T11:00:00+01:00',
    });
    expect(otherRoute.status).toBe(409);
    expect((await errorOf(otherRoute)).details).toMatchObject({ reason: 'TOKEN_CONSUMED' });

    // Still readable, with every action NONE.
    const read = await ok<Detail>(await call('GET', `/customer/bookings/${token}`));
    expect(read.actions).toMatchObject({ cancel: 'NONE', reschedule: 'NONE' });
    expect(read.changeRequests).toHaveLength(1);

    // The token never reaches the logs.
    expect(JSON.stringify(h.logs)).not.toContain(token);
    expect(JSON.stringify(h.logs)).toContain('/customer/bookings/{token}');
  });

  it('unknown, malformed, another store’s and expired tokens are the neutral 404', async () => {
    const endsAt = later(END, 6 * 24 * HOUR);
    const id = await booking(shop, await serviceOf(shop, 'SELF_SERVICE', 0), {
      startsAt: later(START, 6 * 24 * HOUR),
      endsAt,
    });
    const token = await managementToken(shop, id, endsAt);
    await expectError(
      await guest(other.slug)('GET', `/customer/bookings/${token}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await guest(other.slug)('POST', `/customer/bookings/${token}/cancel-request`, {}),
      404,
      'RESOURCE_NOT_FOUND',
    );
    for (const bad of [newToken('bookingManagement'), 'm1_short', newToken('action')]) {
      await expectError(await guest()('GET', `/customer/bookings/${bad}`), 404, 'RESOURCE_NOT_FOUND');
    }
    await expectError(
      await guest()('GET', `/customer/bookings/${'m'.repeat(101)}`),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(await h.app.request(`/api/v1/customer/bookings/${token}`), 400, 'TENANT_REQUIRED');

    h.clock.set(later(endsAt, 30 * 24 * HOUR));
    try {
      await expectError(await guest()('GET', `/customer/bookings/${token}`), 404, 'RESOURCE_NOT_FOUND');
    } finally {
      h.clock.set(NOW);
    }
    // A guest SELF_SERVICE cancel applies at once.
    const applied = await ok<Result>(await guest()('POST', `/customer/bookings/${token}/cancel-request`, {}));
    expect(applied).toMatchObject({ outcome: 'APPLIED', booking: { status: 'CANCELLED' } });
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')(
  'concurrent requests through the gateway (PostgreSQL)',
  () => {
    it('20 concurrent guest cancel-requests with one token: one change, 19 replays', async () => {
      const endsAt = later(END, 7 * 24 * HOUR);
      const id = await booking(shop, await serviceOf(shop, 'SELF_SERVICE', 0), {
        startsAt: later(START, 7 * 24 * HOUR),
        endsAt,
      });
      const token = await managementToken(shop, id, endsAt);
      const sends = Array.from(
        { length: 20 },
        () => () => guest()('POST', `/customer/bookings/${token}/cancel-request`, { reason: 'Race' }),
      );
      const responses = await Promise.all(sends.map((send) => send()));
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
      expect(
        responses.filter((response) => response.headers.get('idempotent-replayed') === 'true'),
      ).toHaveLength(19);
      const row = await h.database.db
        .selectFrom('bookings')
        .select(['status', 'history'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('CANCELLED');
      expect((row.history as { to: string }[]).filter((entry) => entry.to === 'CANCELLED')).toHaveLength(1);
    });

    it('20 concurrent reschedule-requests under REQUEST: one pending change request, 19 × 409', async () => {
      const call = as(await signIn('race@example.test'));
      const id = await booking(shop, await serviceOf(shop, 'REQUEST'), {
        customerEmail: 'race@example.test',
        startsAt: later(START, 8 * 24 * HOUR),
        endsAt: later(END, 8 * 24 * HOUR),
      });
      const sends = Array.from(
        { length: 20 },
        () => () =>
          call('POST', `/customer/account/bookings/${id}/reschedule-request`, {
            startsAt: '2026-07-25T10:00:00+01:00',
            endsAt: '2026-07-25T11:00:00+01:00',
          }),
      );
      const responses = await Promise.all(sends.map((send) => send()));
      expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
      for (const response of responses.filter((entry) => entry.status !== 200)) {
        expect(response.status).toBe(409);
        expect((await errorOf(response)).details).toMatchObject({ reason: 'CHANGE_REQUEST_PENDING' });
      }
      const requests = await h.database.db
        .selectFrom('booking_change_requests')
        .select('status')
        .where('booking_id', '=', id)
        .execute();
      expect(requests).toEqual([{ status: 'PENDING' }]);
    });
  },
);
