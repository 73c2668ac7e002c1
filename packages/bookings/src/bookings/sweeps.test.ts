import { hashToken, newId } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingShop, EMAIL, insertBooking, liveClaimsOf } from '../../test/booking-factories.ts';
import { minutesAfter } from '../../test/factories.ts';
import { withCapacityLock } from '../capacity/capacity-lock.ts';
import { insertClaims } from '../capacity/claims.ts';
import {
  expireBookingHolds,
  expireBookingPaymentWindows,
  expireBookingRequests,
  pruneManagementTokens,
  startBookingSweeps,
  withdrawStartedChangeRequests,
} from './sweeps.ts';

let handle: DatabaseHandle;
let db: Kysely<Database>;
beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 8 });
  db = handle.db;
});
afterAll(async () => {
  await handle.close();
});

const NOW = new Date('2026-07-01T08:00:00.000Z');
const START = new Date('2026-07-10T10:00:00.000Z');
const END = minutesAfter(START, 60);

async function statusOf(organizationId: string, id: string) {
  const row = await db
    .selectFrom('bookings')
    .select(['status', 'history'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row;
}

async function events(organizationId: string) {
  const rows = await db
    .selectFrom('outbox')
    .select('metadata')
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => (row.metadata as { event?: string }).event);
}

describe(`bookings sweeps (${testDatabaseKind})`, () => {
  it('expires PENDING_PAYMENT bookings past their window once: claim released, emailed, SYSTEM in history', async () => {
    const shop = await bookingShop(db, 'sweep-payment', { now: NOW, capacity: 2 });
    const due = await insertBooking(db, {
      ...shop,
      status: 'PENDING_PAYMENT',
      startsAt: START,
      endsAt: END,
      at: NOW,
      paymentExpiresAt: minutesAfter(NOW, 30),
      amountDueNowInCents: 4000,
    });
    const notYet = await insertBooking(db, {
      ...shop,
      status: 'PENDING_PAYMENT',
      startsAt: START,
      endsAt: END,
      at: NOW,
      paymentExpiresAt: minutesAfter(NOW, 90),
      amountDueNowInCents: 4000,
    });
    const at = minutesAfter(NOW, 45);
    expect(await expireBookingPaymentWindows(db, { at, email: EMAIL })).toBe(1);
    expect(await expireBookingPaymentWindows(db, { at, email: EMAIL })).toBe(0);
    const row = await statusOf(shop.organizationId, due);
    expect(row.status).toBe('EXPIRED');
    expect(row.history.at(-1)).toMatchObject({ from: 'PENDING_PAYMENT', to: 'EXPIRED', actor: 'SYSTEM' });
    expect(await liveClaimsOf(db, shop.organizationId, due, NOW)).toHaveLength(0);
    expect((await statusOf(shop.organizationId, notYet)).status).toBe('PENDING_PAYMENT');
    expect(await events(shop.organizationId)).toEqual(['EXPIRED']);
  });

  it('expires REQUESTED bookings past requestExpiresAt and withdraws pending change requests of started bookings', async () => {
    const shop = await bookingShop(db, 'sweep-request', { now: NOW, capacity: 2 });
    const requested = await insertBooking(db, {
      ...shop,
      status: 'REQUESTED',
      startsAt: START,
      endsAt: END,
      at: NOW,
      requestExpiresAt: minutesAfter(NOW, 60),
    });
    const started = await insertBooking(db, {
      ...shop,
      status: 'CONFIRMED',
      startsAt: minutesAfter(NOW, 30),
      endsAt: minutesAfter(NOW, 90),
      at: NOW,
    });
    const future = await insertBooking(db, {
      ...shop,
      status: 'CONFIRMED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    for (const bookingId of [started, future]) {
      await db
        .insertInto('booking_change_requests')
        .values({
          organization_id: shop.organizationId,
          id: `bcr_${newId('req', NOW).slice(4)}`,
          booking_id: bookingId,
          kind: 'CANCEL',
          status: 'PENDING',
          starts_at: null,
          ends_at: null,
          reason: null,
          actor: 'GUEST',
          decided_by_user_id: null,
          decision_reason: null,
          decided_at: null,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
    }
    const at = minutesAfter(NOW, 61);
    expect(await expireBookingRequests(db, { at, email: EMAIL })).toBe(1);
    expect(await expireBookingRequests(db, { at, email: EMAIL })).toBe(0);
    expect((await statusOf(shop.organizationId, requested)).status).toBe('EXPIRED');
    expect(await withdrawStartedChangeRequests(db, { at })).toBe(1);
    expect(await withdrawStartedChangeRequests(db, { at })).toBe(0);
    const requests = await db
      .selectFrom('booking_change_requests')
      .select(['booking_id', 'status'])
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(Object.fromEntries(requests.map((row) => [row.booking_id, row.status]))).toEqual({
      [started]: 'WITHDRAWN',
      [future]: 'PENDING',
    });
    expect(await events(shop.organizationId)).toEqual(['EXPIRED']);
  });

  it('expires lapsed holds and releases their claims; prunes only management tokens past their retention', async () => {
    const shop = await bookingShop(db, 'sweep-holds', { now: NOW, capacity: 2 });
    const holdId = newId('hld', NOW);
    await db
      .insertInto('booking_holds')
      .values({
        organization_id: shop.organizationId,
        id: holdId,
        service_id: shop.serviceId,
        status: 'ACTIVE',
        starts_at: START,
        ends_at: END,
        quantity: 1,
        customer_email: 'guest@example.test',
        key_hash: hashToken('hold-key'),
        client_key: hashToken('client'),
        snapshot: JSON.stringify({}),
        expires_at: minutesAfter(NOW, 30),
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    const ctx = { organizationId: shop.organizationId, at: NOW };
    await withCapacityLock(db, ctx, [shop.resourceId], (trx) =>
      insertClaims(trx, ctx, [
        {
          resourceId: shop.resourceId,
          quantity: 1,
          startsAt: START,
          endsAt: END,
          expiresAt: minutesAfter(NOW, 30),
          owner: { kind: 'HOLD', id: holdId },
        },
      ]),
    );
    expect(await expireBookingHolds(db, { at: minutesAfter(NOW, 29) })).toBe(0);
    expect(await expireBookingHolds(db, { at: minutesAfter(NOW, 30) })).toBe(1);
    expect(await expireBookingHolds(db, { at: minutesAfter(NOW, 31) })).toBe(0);
    const hold = await db
      .selectFrom('booking_holds')
      .select('status')
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', holdId)
      .executeTakeFirstOrThrow();
    expect(hold.status).toBe('EXPIRED');
    const unreleased = await db
      .selectFrom('booking_capacity_claims')
      .select('id')
      .where('organization_id', '=', shop.organizationId)
      .where('hold_id', '=', holdId)
      .where('released_at', 'is', null)
      .execute();
    expect(unreleased).toEqual([]);

    const bookingId = await insertBooking(db, {
      ...shop,
      status: 'CONFIRMED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    const day = 86_400_000;
    const later = new Date(NOW.getTime() + 100 * day);
    const token = async (label: string, fields: { expires: number; consumed?: number; revoked?: number }) => {
      await db
        .insertInto('booking_management_tokens')
        .values({
          token_hash: hashToken(`${label}-${shop.organizationId}`),
          organization_id: shop.organizationId,
          booking_id: bookingId,
          expires_at: new Date(later.getTime() + fields.expires * day),
          consumed_at:
            fields.consumed === undefined ? null : new Date(later.getTime() + fields.consumed * day),
          revoked_at: fields.revoked === undefined ? null : new Date(later.getTime() + fields.revoked * day),
          consumed_action: null,
          created_at: NOW,
        })
        .execute();
      return hashToken(`${label}-${shop.organizationId}`);
    };
    const kept = [
      await token('live', { expires: 10 }),
      await token('recently-expired', { expires: -5 }),
      await token('consumed-still-valid', { expires: 10, consumed: -40 }),
    ];
    await token('long-expired', { expires: -31 });
    await token('expired-and-consumed-long-ago', { expires: -1, consumed: -31 });
    await token('expired-and-revoked-long-ago', { expires: -1, revoked: -45 });
    // Other tests of this file left tokens of their own, long expired by then.
    expect(await pruneManagementTokens(db, { at: later })).toBeGreaterThanOrEqual(3);
    expect(await pruneManagementTokens(db, { at: later })).toBe(0);
    const left = await db
      .selectFrom('booking_management_tokens')
      .select('token_hash')
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(left.map((row) => row.token_hash).sort()).toEqual([...kept].sort());
  });

  it('drains every job in batches from startBookingSweeps().runOnce', async () => {
    const shop = await bookingShop(db, 'sweep-batches', { now: NOW, capacity: 5 });
    for (let index = 0; index < 3; index += 1) {
      await insertBooking(db, {
        ...shop,
        status: 'REQUESTED',
        startsAt: minutesAfter(START, index * 60),
        endsAt: minutesAfter(START, index * 60 + 60),
        at: NOW,
        requestExpiresAt: minutesAfter(NOW, 10),
      });
    }
    const logged: string[] = [];
    const sweeps = startBookingSweeps({
      db,
      clock: { now: () => minutesAfter(NOW, 20) },
      email: EMAIL,
      holdIntervalMs: 3_600_000,
      intervals: { paymentMs: 3_600_000, requestMs: 3_600_000, pruneMs: 3_600_000 },
      batchSize: 2,
      logger: {
        info: (_details, message) => logged.push(message),
        error: (_details, message) => logged.push(message),
      },
    });
    try {
      const counts = await sweeps.runOnce();
      expect(counts.requestsExpired).toBeGreaterThanOrEqual(3);
      const statuses = await db
        .selectFrom('bookings')
        .select('status')
        .where('organization_id', '=', shop.organizationId)
        .execute();
      expect(statuses.map((row) => row.status)).toEqual(['EXPIRED', 'EXPIRED', 'EXPIRED']);
    } finally {
      await sweeps.stop();
    }
  });
});
