import { AppError } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BookingShop,
  bookingShop,
  guestToken,
  insertBooking,
  insertCustomer,
  notifyContext,
} from '../../test/customer-factories.ts';
import type { Policies } from '../services/schemas.ts';
import {
  getCustomerBooking,
  getGuestBooking,
  listCustomerBookings,
  requestCustomerBookingChange as requestChange,
  requestGuestBookingChange,
} from './customer-bookings.ts';
import { customerBookingListQuerySchema } from './customer-schemas.ts';

let handle: DatabaseHandle;
let db: Kysely<Database>;
beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 24 });
  db = handle.db;
});
afterAll(async () => {
  await handle.close();
});

const NOW = new Date('2026-07-01T08:00:00.000Z');
const HOUR = 3_600_000;
const START = new Date('2026-07-10T09:00:00.000Z'); // 10:00 in Lisbon (UTC+1)
const END = new Date('2026-07-10T10:00:00.000Z');
const later = (base: Date, ms: number) => new Date(base.getTime() + ms);
const ctxAt = (shop: BookingShop, at: Date = NOW) => notifyContext(shop.organizationId, at);

/** The account mutation's answer (its after-commit work, a provider call, has nothing to do here). */
async function requestCustomerBookingChange(...args: Parameters<typeof requestChange>) {
  return (await requestChange(...args)).result;
}

async function rejection(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

function policy(mode: 'SELF_SERVICE' | 'REQUEST' | 'NONE', cutoffMinutes = 0): Policies {
  return { cancellation: { mode, cutoffMinutes }, reschedule: { mode, cutoffMinutes } };
}

async function customerShop(label: string, policies: Policies = policy('REQUEST'), capacity = 1) {
  const shop = await bookingShop(db, label, { at: NOW, policies, capacity });
  const customerId = await insertCustomer(db, shop.organizationId, { email: 'ana@example.test' });
  const owner = { organizationId: shop.organizationId, customerId };
  return { shop, owner };
}

async function emailsOf(organizationId: string) {
  const rows = await db
    .selectFrom('outbox')
    .select('metadata')
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const metadata = row.metadata as { event?: string; audience?: string };
    return `${metadata.audience}:${metadata.event}`;
  });
}

async function changeRequestsOf(organizationId: string, bookingId: string) {
  return db
    .selectFrom('booking_change_requests')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('booking_id', '=', bookingId)
    .execute();
}

async function liveClaims(organizationId: string, bookingId: string) {
  return db
    .selectFrom('booking_capacity_claims')
    .select(['during'])
    .where('organization_id', '=', organizationId)
    .where('booking_id', '=', bookingId)
    .where('released_at', 'is', null)
    .execute();
}

describe('ownership and the neutral 404', () => {
  it('shows a booking linked by id or placed with the verified email (any case), to that customer only', async () => {
    const { shop, owner } = await customerShop('own');
    const byEmail = await insertBooking(db, shop, {
      startsAt: START,
      endsAt: END,
      customerEmail: 'ANA@Example.test',
      at: NOW,
    });
    const byId = await insertBooking(db, shop, {
      startsAt: later(START, 24 * HOUR),
      endsAt: later(END, 24 * HOUR),
      customerEmail: 'someone-else@example.test',
      customerId: owner.customerId,
      at: NOW,
    });
    expect((await getCustomerBooking(db, ctxAt(shop), owner, byEmail)).id).toBe(byEmail);
    expect((await getCustomerBooking(db, ctxAt(shop), owner, byId)).id).toBe(byId);

    const other = await insertCustomer(db, shop.organizationId, { email: 'bruno@example.test' });
    const error = await rejection(() =>
      getCustomerBooking(
        db,
        ctxAt(shop),
        { organizationId: shop.organizationId, customerId: other },
        byEmail,
      ),
    );
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('refuses unknown ids, another store’s bookings, unverified and pending emails alike', async () => {
    const { shop, owner } = await customerShop('neutral');
    const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    const { shop: otherShop } = await customerShop('neutral-other');
    const foreign = await insertBooking(db, otherShop, { startsAt: START, endsAt: END, at: NOW });
    const unverified = await insertCustomer(db, shop.organizationId, {
      email: 'carla@example.test',
      verified: false,
    });
    await db
      .updateTable('bookings')
      .set({ customer_email: 'carla@example.test' })
      .where('id', '=', booking)
      .execute();
    const pending = await insertCustomer(db, shop.organizationId, {
      email: 'dora@example.test',
      pendingEmail: 'carla@example.test',
    });
    for (const [customerId, bookingId] of [
      [owner.customerId, 'bkg_unknown'],
      [owner.customerId, foreign],
      [owner.customerId, booking], // the email changed: no longer Ana's
      [unverified, booking],
      [pending, booking],
    ] as const) {
      const error = await rejection(() =>
        getCustomerBooking(db, ctxAt(shop), { organizationId: shop.organizationId, customerId }, bookingId),
      );
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
      const mutation = await rejection(() =>
        requestCustomerBookingChange(
          db,
          ctxAt(shop),
          { organizationId: shop.organizationId, customerId },
          bookingId,
          { kind: 'CANCEL' },
        ),
      );
      expect(mutation.code).toBe('RESOURCE_NOT_FOUND');
    }
  });
});

describe('the customer list', () => {
  it('orders, filters by status and timeframe, and pages with a cursor', async () => {
    const { shop, owner } = await customerShop('list', policy('REQUEST'), 10);
    const day = 24 * HOUR;
    const past = await insertBooking(db, shop, {
      startsAt: later(NOW, -2 * day),
      endsAt: later(NOW, -2 * day + HOUR),
      at: later(NOW, -3 * day),
    });
    const a = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    const b = await insertBooking(db, shop, {
      startsAt: later(START, day),
      endsAt: later(END, day),
      status: 'REQUESTED',
      at: NOW,
    });
    const c = await insertBooking(db, shop, {
      startsAt: later(START, 2 * day),
      endsAt: later(END, 2 * day),
      status: 'CANCELLED',
      at: NOW,
    });
    const { shop: otherShop } = await customerShop('list-other');
    await insertBooking(db, otherShop, { startsAt: START, endsAt: END, at: NOW });
    const list = (query: Record<string, unknown>) =>
      listCustomerBookings(db, ctxAt(shop), owner, customerBookingListQuerySchema.parse(query));

    expect((await list({})).data.map((row) => row.id)).toEqual([c, b, a, past]);
    expect((await list({ timeframe: 'UPCOMING' })).data.map((row) => row.id)).toEqual([a, b, c]);
    expect((await list({ timeframe: 'PAST' })).data.map((row) => row.id)).toEqual([past]);
    expect((await list({ status: 'REQUESTED,CANCELLED' })).data.map((row) => row.id)).toEqual([c, b]);

    const first = await list({ limit: 2, timeframe: 'UPCOMING' });
    expect(first.data.map((row) => row.id)).toEqual([a, b]);
    expect(first.nextCursor).toBe(b);
    const second = await list({ limit: 2, timeframe: 'UPCOMING', cursor: first.nextCursor });
    expect(second.data.map((row) => row.id)).toEqual([c]);
    expect(second.nextCursor).toBeNull();

    const summary = (await list({ timeframe: 'UPCOMING', limit: 1 })).data[0]!;
    expect(summary).toMatchObject({
      status: 'CONFIRMED',
      startsAt: '2026-07-10T10:00:00+01:00',
      actions: { cancel: 'REQUEST', reschedule: 'REQUEST' },
      hasPendingChangeRequest: false,
    });

    const error = await rejection(() => list({ cursor: 'bkg_not_mine' }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(() => customerBookingListQuerySchema.parse({ status: 'CONFIRMED,BOGUS' })).toThrow();
  });
});

describe('cancel-request under each policy', () => {
  it('SELF_SERVICE before the cutoff cancels at once, releases the claim and emails the merchant', async () => {
    const { shop, owner } = await customerShop('self-cancel', policy('SELF_SERVICE', 24 * 60));
    const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    const result = await requestCustomerBookingChange(db, ctxAt(shop), owner, booking, {
      kind: 'CANCEL',
      reason: 'Plans changed',
    });
    expect(result.outcome).toBe('APPLIED');
    expect(result.booking.status).toBe('CANCELLED');
    expect(result.booking.actions).toMatchObject({ cancel: 'NONE', reschedule: 'NONE' });
    expect(await liveClaims(shop.organizationId, booking)).toHaveLength(0);
    expect(await emailsOf(shop.organizationId)).toEqual(
      expect.arrayContaining(['CUSTOMER:CANCELLED', 'MERCHANT:CUSTOMER_CANCELLED']),
    );
    const history = (await db
      .selectFrom('bookings')
      .select('history')
      .where('id', '=', booking)
      .executeTakeFirst())!.history as { actor: string; to: string; reason?: string }[];
    expect(history.at(-1)).toMatchObject({ actor: 'CUSTOMER', to: 'CANCELLED', reason: 'Plans changed' });
  });

  it('SELF_SERVICE after the cutoff, and REQUEST, record a pending change request instead', async () => {
    for (const [label, policies, at] of [
      ['self-late', policy('SELF_SERVICE', 24 * 60), later(START, -2 * HOUR)],
      ['request', policy('REQUEST', 0), NOW],
    ] as const) {
      const { shop, owner } = await customerShop(label, policies);
      const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
      const result = await requestCustomerBookingChange(db, ctxAt(shop, at), owner, booking, {
        kind: 'CANCEL',
        reason: 'Sick',
      });
      expect(result.outcome).toBe('REQUESTED');
      expect(result.booking.status).toBe('CONFIRMED');
      expect(result.booking.changeRequests).toEqual([
        expect.objectContaining({ kind: 'CANCEL', status: 'PENDING', reason: 'Sick' }),
      ]);
      expect(result.booking.actions.cancel).not.toBe('REQUEST');
      expect(await liveClaims(shop.organizationId, booking)).toHaveLength(1);
      expect(await emailsOf(shop.organizationId)).toEqual([
        'MERCHANT:CHANGE_REQUESTED',
        'CUSTOMER:CHANGE_REQUEST_RECEIVED',
      ]);
      const [request] = await changeRequestsOf(shop.organizationId, booking);
      expect(request).toMatchObject({ actor: 'CUSTOMER', status: 'PENDING', starts_at: null });
    }
  });

  it('NONE is 409 POLICY and changes nothing; REQUESTED and PENDING_PAYMENT cancel at once whatever the policy', async () => {
    const { shop, owner } = await customerShop('none', policy('NONE'));
    const confirmed = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    const error = await rejection(() =>
      requestCustomerBookingChange(db, ctxAt(shop), owner, confirmed, { kind: 'CANCEL' }),
    );
    expect(error).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { reason: 'POLICY' } });
    expect(await changeRequestsOf(shop.organizationId, confirmed)).toHaveLength(0);

    for (const status of ['REQUESTED', 'PENDING_PAYMENT'] as const) {
      const booking = await insertBooking(db, shop, {
        startsAt: later(START, 3 * 24 * HOUR),
        endsAt: later(END, 3 * 24 * HOUR),
        status,
        at: NOW,
      });
      const result = await requestCustomerBookingChange(db, ctxAt(shop), owner, booking, { kind: 'CANCEL' });
      expect(result).toMatchObject({ outcome: 'APPLIED', booking: { status: 'CANCELLED' } });
      const reschedule = await rejection(() =>
        requestCustomerBookingChange(db, ctxAt(shop), owner, booking, {
          kind: 'RESCHEDULE',
          startsAt: '2026-07-20T10:00:00+01:00',
          endsAt: '2026-07-20T11:00:00+01:00',
        }),
      );
      expect(reschedule.code).toBe('INVALID_STATE_TRANSITION');
    }
  });

  it('after endsAt any customer action is 409, and a cancelled booking takes none', async () => {
    const { shop, owner } = await customerShop('ended', policy('SELF_SERVICE'));
    const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    const error = await rejection(() =>
      requestCustomerBookingChange(db, ctxAt(shop, later(END, 1)), owner, booking, { kind: 'CANCEL' }),
    );
    expect(error).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { reason: 'BOOKING_ENDED' } });
    await requestCustomerBookingChange(db, ctxAt(shop), owner, booking, { kind: 'CANCEL' });
    const again = await rejection(() =>
      requestCustomerBookingChange(db, ctxAt(shop), owner, booking, { kind: 'CANCEL' }),
    );
    expect(again).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { reason: 'STATUS' } });
  });
});

describe('reschedule-request', () => {
  const move = (startsAt: string, endsAt: string) => ({ kind: 'RESCHEDULE' as const, startsAt, endsAt });

  it('SELF_SERVICE moves the booking at once, over its own old interval on capacity 1', async () => {
    const { shop, owner } = await customerShop('self-move', policy('SELF_SERVICE', 60));
    const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    const result = await requestCustomerBookingChange(
      db,
      ctxAt(shop),
      owner,
      booking,
      move('2026-07-10T10:30:00+01:00', '2026-07-10T11:30:00+01:00'),
    );
    expect(result).toMatchObject({
      outcome: 'APPLIED',
      booking: {
        status: 'CONFIRMED',
        startsAt: '2026-07-10T10:30:00+01:00',
        endsAt: '2026-07-10T11:30:00+01:00',
      },
    });
    expect(await emailsOf(shop.organizationId)).toContain('CUSTOMER:RESCHEDULED');
  });

  it('REQUEST records the interval asked for without claiming it', async () => {
    const { shop, owner } = await customerShop('request-move');
    const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    const result = await requestCustomerBookingChange(db, ctxAt(shop), owner, booking, {
      ...move('2026-07-11T15:00:00+01:00', '2026-07-11T16:00:00+01:00'),
      reason: 'Later, please',
    });
    expect(result.outcome).toBe('REQUESTED');
    expect(result.booking.startsAt).toBe('2026-07-10T10:00:00+01:00');
    expect(result.booking.changeRequests[0]).toMatchObject({
      kind: 'RESCHEDULE',
      status: 'PENDING',
      startsAt: '2026-07-11T15:00:00+01:00',
      endsAt: '2026-07-11T16:00:00+01:00',
    });
    const claims = await liveClaims(shop.organizationId, booking);
    expect(claims).toHaveLength(1);
    expect(await emailsOf(shop.organizationId)).toEqual([
      'MERCHANT:CHANGE_REQUESTED',
      'CUSTOMER:CHANGE_REQUEST_RECEIVED',
    ]);
  });

  it('a request is checked against the rules and capacity first: 409 and nothing recorded', async () => {
    const { shop, owner } = await customerShop('request-checks');
    const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    await insertBooking(db, shop, {
      startsAt: new Date('2026-07-12T09:00:00Z'),
      endsAt: new Date('2026-07-12T10:00:00Z'),
      customerEmail: 'other@example.test',
      at: NOW,
    });
    const outside = await rejection(() =>
      requestCustomerBookingChange(
        db,
        ctxAt(shop),
        owner,
        booking,
        move('2026-07-11T21:00:00+01:00', '2026-07-11T22:00:00+01:00'),
      ),
    );
    expect(outside).toMatchObject({ code: 'BOOKING_SLOT_UNAVAILABLE', details: { reason: 'OUTSIDE_HOURS' } });
    const taken = await rejection(() =>
      requestCustomerBookingChange(
        db,
        ctxAt(shop),
        owner,
        booking,
        move('2026-07-12T10:00:00+01:00', '2026-07-12T11:00:00+01:00'),
      ),
    );
    expect(taken.code).toBe('CAPACITY_UNAVAILABLE');
    expect(await changeRequestsOf(shop.organizationId, booking)).toHaveLength(0);
    expect(await emailsOf(shop.organizationId)).toEqual([]);
    // The trial move was rolled back: the booking keeps its own claim and interval.
    expect(await liveClaims(shop.organizationId, booking)).toHaveLength(1);
    expect((await getCustomerBooking(db, ctxAt(shop), owner, booking)).startsAt).toBe(
      '2026-07-10T10:00:00+01:00',
    );
  });

  it('one pending change request per booking', async () => {
    const { shop, owner } = await customerShop('one-pending');
    const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    await requestCustomerBookingChange(db, ctxAt(shop), owner, booking, { kind: 'CANCEL' });
    const error = await rejection(() =>
      requestCustomerBookingChange(
        db,
        ctxAt(shop),
        owner,
        booking,
        move('2026-07-11T15:00:00+01:00', '2026-07-11T16:00:00+01:00'),
      ),
    );
    expect(error).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { reason: 'CHANGE_REQUEST_PENDING' },
    });
    expect(await changeRequestsOf(shop.organizationId, booking)).toHaveLength(1);
  });

  it('keeps the booked duration: elapsed minutes, or whole local days across a clock change', async () => {
    const { shop, owner } = await customerShop('duration', policy('REQUEST'), 5);
    const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    const wrong = await rejection(() =>
      requestCustomerBookingChange(
        db,
        ctxAt(shop),
        owner,
        booking,
        move('2026-07-11T15:00:00+01:00', '2026-07-11T17:00:00+01:00'),
      ),
    );
    expect(wrong).toMatchObject({ code: 'VALIDATION_FAILED' });

    // One local day (24 h in summer); moved across the end of summer time it lasts 25 hours.
    const day = await insertBooking(db, shop, {
      startsAt: new Date('2026-10-20T09:00:00Z'),
      endsAt: new Date('2026-10-21T09:00:00Z'),
      at: NOW,
    });
    const elapsed = await rejection(() =>
      requestCustomerBookingChange(
        db,
        ctxAt(shop),
        owner,
        day,
        move('2026-10-24T10:00:00+01:00', '2026-10-25T09:00:00+00:00'),
      ),
    );
    expect(elapsed.code).toBe('VALIDATION_FAILED');
    const result = await requestCustomerBookingChange(
      db,
      ctxAt(shop),
      owner,
      day,
      move('2026-10-24T10:00:00+01:00', '2026-10-25T10:00:00+00:00'),
    );
    expect(result.booking.changeRequests[0]).toMatchObject({
      startsAt: '2026-10-24T10:00:00+01:00',
      endsAt: '2026-10-25T10:00:00+00:00',
    });
  });
});

describe('guest access with an m1_ token', () => {
  async function guestBooking(label: string, policies: Policies = policy('REQUEST')) {
    const { shop } = await customerShop(label, policies);
    const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    const token = await guestToken(db, shop, booking, END, NOW);
    return { shop, booking, token };
  }

  it('reads the detail; unknown, malformed, expired, revoked and another store’s tokens are the neutral 404', async () => {
    const { shop, booking, token } = await guestBooking('guest-read');
    expect((await getGuestBooking(db, ctxAt(shop), token)).id).toBe(booking);

    const { shop: other } = await customerShop('guest-read-other');
    const expiry = later(END, 30 * 24 * HOUR);
    const expectations: [string, Date, string][] = [
      ['another store', NOW, other.organizationId],
      ['expired', expiry, shop.organizationId],
    ];
    for (const [, at, organizationId] of expectations) {
      const error = await rejection(() => getGuestBooking(db, notifyContext(organizationId, at), token));
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
    }
    expect((await getGuestBooking(db, ctxAt(shop, later(expiry, -60_000)), token)).id).toBe(booking);
    for (const bad of ['m1_unknown', `m1_${'A'.repeat(43)}`, 'x'.repeat(100), '']) {
      const error = await rejection(() => getGuestBooking(db, ctxAt(shop), bad));
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
    }
    // A fresh token revokes the unused one.
    await guestToken(db, shop, booking, END, NOW);
    const revoked = await rejection(() => getGuestBooking(db, ctxAt(shop), token));
    expect(revoked.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('one mutation per token: same route and body replays, anything else is 409 TOKEN_CONSUMED', async () => {
    const { shop, booking, token } = await guestBooking('guest-once');
    const first = await requestGuestBookingChange(db, ctxAt(shop), token, {
      kind: 'CANCEL',
      reason: 'Sorry',
    });
    expect(first.replayed).toBe(false);
    expect(first.result.outcome).toBe('REQUESTED');
    expect(first.result.booking.actions).toMatchObject({ cancel: 'NONE', reschedule: 'NONE' });
    const [request] = await changeRequestsOf(shop.organizationId, booking);
    expect(request).toMatchObject({ actor: 'GUEST' });

    const replay = await requestGuestBookingChange(db, ctxAt(shop, later(NOW, HOUR)), token, {
      kind: 'CANCEL',
      reason: 'Sorry',
    });
    expect(replay).toEqual({ result: first.result, replayed: true });

    for (const other of [
      { kind: 'CANCEL' as const, reason: 'Another reason' },
      {
        kind: 'RESCHEDULE' as const,
        startsAt: '2026-07-11T15:00:00+01:00',
        endsAt: '2026-07-11T16:00:00+01:00',
      },
    ]) {
      const error = await rejection(() => requestGuestBookingChange(db, ctxAt(shop), token, other));
      expect(error).toMatchObject({
        code: 'INVALID_STATE_TRANSITION',
        details: { reason: 'TOKEN_CONSUMED' },
      });
    }
    expect(await changeRequestsOf(shop.organizationId, booking)).toHaveLength(1);

    // The mutation's emails issued a fresh token; the consumed one stays readable, every action NONE.
    const fresh = await db
      .selectFrom('booking_management_tokens')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('booking_id', '=', booking)
      .executeTakeFirstOrThrow();
    expect(fresh.count).toBeGreaterThan(1);
    const read = await getGuestBooking(db, ctxAt(shop), token);
    expect(read.actions).toMatchObject({ cancel: 'NONE', reschedule: 'NONE' });
    expect(read.changeRequests).toHaveLength(1);
  });

  it('a refused mutation leaves the token unused', async () => {
    const { shop, booking, token } = await guestBooking('guest-refused', policy('NONE'));
    const error = await rejection(() =>
      requestGuestBookingChange(db, ctxAt(shop), token, { kind: 'CANCEL' }),
    );
    expect(error).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { reason: 'POLICY' } });
    const read = await getGuestBooking(db, ctxAt(shop), token);
    expect(read.id).toBe(booking);
    const row = await db
      .selectFrom('booking_management_tokens')
      .select(['consumed_at'])
      .where('booking_id', '=', booking)
      .executeTakeFirstOrThrow();
    expect(row.consumed_at).toBeNull();
  });

  it('a guest SELF_SERVICE cancel applies at once as GUEST', async () => {
    const { shop, booking, token } = await guestBooking('guest-apply', policy('SELF_SERVICE', 60));
    const { result } = await requestGuestBookingChange(db, ctxAt(shop), token, { kind: 'CANCEL' });
    expect(result).toMatchObject({ outcome: 'APPLIED', booking: { id: booking, status: 'CANCELLED' } });
    const history = (await db
      .selectFrom('bookings')
      .select('history')
      .where('id', '=', booking)
      .executeTakeFirst())!.history as { actor: string }[];
    expect(history.at(-1)).toMatchObject({ actor: 'GUEST' });
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('concurrency on PostgreSQL', () => {
  it('20 concurrent cancel-requests with one guest token make one mutation; the rest replay it', async () => {
    const { shop } = await customerShop('race-guest', policy('SELF_SERVICE', 60));
    const booking = await insertBooking(db, shop, { startsAt: START, endsAt: END, at: NOW });
    const token = await guestToken(db, shop, booking, END, NOW);
    const attempts = Array.from(
      { length: 20 },
      () => () => requestGuestBookingChange(db, ctxAt(shop), token, { kind: 'CANCEL', reason: 'Race' }),
    );
    const results = await Promise.all(attempts.map((attempt) => attempt()));
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect(results.filter((result) => result.replayed)).toHaveLength(19);
    for (const result of results) expect(result.result).toEqual(results[0]!.result);
    const history = (await db
      .selectFrom('bookings')
      .select('history')
      .where('id', '=', booking)
      .executeTakeFirst())!.history as { to: string }[];
    expect(history.filter((entry) => entry.to === 'CANCELLED')).toHaveLength(1);
    expect(
      (await emailsOf(shop.organizationId)).filter((email) => email === 'MERCHANT:CUSTOMER_CANCELLED'),
    ).toHaveLength(1);
  });

  it('20 concurrent reschedule-requests under REQUEST make one pending change request; the rest are 409', async () => {
    const { shop, owner } = await customerShop('race-requests', policy('REQUEST'));
    const booking = await insertBooking(db, shop, {
      startsAt: START,
      endsAt: END,
      customerId: owner.customerId,
      at: NOW,
    });
    const attempts = Array.from(
      { length: 20 },
      (_, index) => () =>
        requestCustomerBookingChange(db, ctxAt(shop), owner, booking, {
          kind: 'RESCHEDULE',
          startsAt: `2026-07-11T${String(8 + (index % 10)).padStart(2, '0')}:00:00+01:00`,
          endsAt: `2026-07-11T${String(9 + (index % 10)).padStart(2, '0')}:00:00+01:00`,
        }).then(
          (result) => ({ ok: true as const, result }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
    );
    const outcomes = await Promise.all(attempts.map((attempt) => attempt()));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    for (const outcome of outcomes.filter((entry) => !entry.ok)) {
      expect(outcome.error).toMatchObject({
        code: 'INVALID_STATE_TRANSITION',
        details: { reason: 'CHANGE_REQUEST_PENDING' },
      });
    }
    const requests = await changeRequestsOf(shop.organizationId, booking);
    expect(requests.filter((request) => request.status === 'PENDING')).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });
});
