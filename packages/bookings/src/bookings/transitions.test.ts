import { AppError, newId } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingShop, EMAIL, insertBooking, liveClaimsOf } from '../../test/booking-factories.ts';
import { minutesAfter } from '../../test/factories.ts';
import { readBookingDetail } from './booking-read.ts';
import { createMerchantBooking } from './create-booking.ts';
import { assertBookingVisible, listMerchantBookings } from './merchant-access.ts';
import { createMerchantBookingInputSchema, merchantBookingListQuerySchema } from './merchant-schemas.ts';
import { isBookingAssignedTo } from './payment-link.ts';
import {
  approveBooking,
  approveChangeRequest,
  cancelBooking,
  declineBooking,
  declineChangeRequest,
  rescheduleBooking,
  setBookingAssignees,
  type TransitionBy,
} from './transitions.ts';

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
const MERCHANT: TransitionBy = { actor: 'MERCHANT', userId: 'usr_owner', userEmail: 'owner@shop.test' };

const ctxOf = (organizationId: string, at = NOW) => ({ organizationId, at, email: EMAIL });

/** Runs `work` in a READ COMMITTED transaction, as the routes do. */
function inTrx<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.transaction().setIsolationLevel('read committed').execute(work);
}

async function codeOf(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

async function statusOf(organizationId: string, bookingId: string) {
  const row = await db
    .selectFrom('bookings')
    .select(['status', 'starts_at', 'ends_at', 'history', 'voided_at', 'payment_expires_at'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', bookingId)
    .executeTakeFirstOrThrow();
  return row;
}

async function auditActions(organizationId: string, bookingId: string) {
  const rows = await db
    .selectFrom('audit_logs')
    .select(['action', 'metadata', 'actor_user_id'])
    .where('organization_id', '=', organizationId)
    .where('target_id', '=', bookingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows;
}

async function emailsOf(organizationId: string) {
  const rows = await db
    .selectFrom('outbox')
    .select(['kind', 'metadata'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => (row.metadata as { event?: string }).event);
}

describe(`merchant transitions (${testDatabaseKind})`, () => {
  it('approves a REQUESTED booking with nothing due: CONFIRMED, claimed, history, audit and email', async () => {
    const shop = await bookingShop(db, 'approve', { now: NOW });
    const id = await insertBooking(db, {
      ...shop,
      status: 'REQUESTED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    const result = await inTrx((trx) => approveBooking(trx, ctxOf(shop.organizationId), id, {}, MERCHANT));
    expect(result.status).toBe('CONFIRMED');
    const row = await statusOf(shop.organizationId, id);
    expect(row.status).toBe('CONFIRMED');
    expect(row.history.at(-1)).toMatchObject({
      from: 'REQUESTED',
      to: 'CONFIRMED',
      actor: 'MERCHANT',
      userId: 'usr_owner',
    });
    expect(await liveClaimsOf(db, shop.organizationId, id, NOW)).toHaveLength(1);
    const audit = await auditActions(shop.organizationId, id);
    expect(audit.map((entry) => entry.action)).toEqual(['booking.approved']);
    expect(audit[0]!.metadata).toMatchObject({ bookingId: id, from: 'REQUESTED', to: 'CONFIRMED' });
    expect(JSON.stringify(audit[0]!.metadata)).not.toContain('ada@example.test');
    expect(await emailsOf(shop.organizationId)).toEqual(['CONFIRMED']);
  });

  it('approves a request with an amount due: PENDING_PAYMENT, claimed until the approval window, link emailed; cancel closes the payment', async () => {
    const shop = await bookingShop(db, 'approve-due', { now: NOW });
    const id = await insertBooking(db, {
      ...shop,
      status: 'REQUESTED',
      startsAt: START,
      endsAt: END,
      at: NOW,
      amountDueNowInCents: 4000,
    });
    const result = await inTrx((trx) => approveBooking(trx, ctxOf(shop.organizationId), id, {}, MERCHANT));
    expect(result.status).toBe('PENDING_PAYMENT');
    const row = await statusOf(shop.organizationId, id);
    // 24 hours (the default approvedPaymentWindowHours) after the approval, before startsAt.
    expect(new Date(row.payment_expires_at!).toISOString()).toBe(minutesAfter(NOW, 24 * 60).toISOString());
    const claims = await liveClaimsOf(db, shop.organizationId, id, NOW);
    expect(claims.map((claim) => new Date(claim.expires_at!).toISOString())).toEqual([
      minutesAfter(NOW, 24 * 60).toISOString(),
    ]);
    expect(await emailsOf(shop.organizationId)).toEqual(['PAYMENT_REQUIRED']);
    const detail = await readBookingDetail(db, ctxOf(shop.organizationId), id, 'MERCHANT');
    expect(detail!.payment).toMatchObject({
      paymentStatus: 'AWAITING_PAYMENT',
      totalInCents: 4000,
      paidInCents: 0,
      balanceDueInCents: 4000,
      voidedAt: null,
    });

    const { afterCommit } = await inTrx((trx) =>
      cancelBooking(trx, ctxOf(shop.organizationId), id, { ...MERCHANT, notifyCustomer: false }),
    );
    await afterCommit();
    const cancelled = await readBookingDetail(db, ctxOf(shop.organizationId), id, 'MERCHANT');
    expect(cancelled!.status).toBe('CANCELLED');
    expect(cancelled!.payment).toMatchObject({ paymentStatus: 'FAILED', voidedAt: NOW.toISOString() });
    expect(await liveClaimsOf(db, shop.organizationId, id, NOW)).toHaveLength(0);
  });

  it('refuses an approval that cannot be claimed with 409 CAPACITY_UNAVAILABLE and changes nothing', async () => {
    const shop = await bookingShop(db, 'approve-full', { now: NOW });
    await insertBooking(db, { ...shop, status: 'CONFIRMED', startsAt: START, endsAt: END, at: NOW });
    const id = await insertBooking(db, {
      ...shop,
      status: 'REQUESTED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    expect(
      await codeOf(() => inTrx((trx) => approveBooking(trx, ctxOf(shop.organizationId), id, {}, MERCHANT))),
    ).toBe('CAPACITY_UNAVAILABLE');
    const row = await statusOf(shop.organizationId, id);
    expect(row.status).toBe('REQUESTED');
    expect(row.history).toHaveLength(1);
    expect(await liveClaimsOf(db, shop.organizationId, id, NOW)).toHaveLength(0);
    expect(await auditActions(shop.organizationId, id)).toEqual([]);
    const detail = await readBookingDetail(db, ctxOf(shop.organizationId), id, 'MERCHANT');
    expect(detail!.capacityConflict).toBe(true);
    expect(detail!.payment).toBeNull();
  });

  it('refuses to approve a request past its expiry or a started one', async () => {
    const shop = await bookingShop(db, 'approve-late', { now: NOW });
    const id = await insertBooking(db, {
      ...shop,
      status: 'REQUESTED',
      startsAt: START,
      endsAt: END,
      at: NOW,
      requestExpiresAt: minutesAfter(NOW, 60),
    });
    const later = ctxOf(shop.organizationId, minutesAfter(NOW, 61));
    expect(await codeOf(() => inTrx((trx) => approveBooking(trx, later, id, {}, MERCHANT)))).toBe(
      'INVALID_STATE_TRANSITION',
    );
  });

  it('declines a REQUESTED booking, emailing the reason; CONFIRMED ones are not declined', async () => {
    const shop = await bookingShop(db, 'decline', { now: NOW });
    const id = await insertBooking(db, {
      ...shop,
      status: 'REQUESTED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    await inTrx((trx) =>
      declineBooking(trx, ctxOf(shop.organizationId), id, { ...MERCHANT, reason: 'Fully booked' }),
    );
    expect((await statusOf(shop.organizationId, id)).status).toBe('DECLINED');
    expect(await emailsOf(shop.organizationId)).toEqual(['DECLINED']);
    expect((await auditActions(shop.organizationId, id)).map((entry) => entry.action)).toEqual([
      'booking.declined',
    ]);
    const confirmed = await insertBooking(db, {
      ...shop,
      status: 'CONFIRMED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    expect(
      await codeOf(() =>
        inTrx((trx) => declineBooking(trx, ctxOf(shop.organizationId), confirmed, MERCHANT)),
      ),
    ).toBe('INVALID_STATE_TRANSITION');
  });

  it('cancels CONFIRMED (claim released) and PENDING_PAYMENT (payment closed) bookings; not REQUESTED ones', async () => {
    const shop = await bookingShop(db, 'cancel', { now: NOW, capacity: 3 });
    const confirmed = await insertBooking(db, {
      ...shop,
      status: 'CONFIRMED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    const pending = await insertBooking(db, {
      ...shop,
      status: 'PENDING_PAYMENT',
      startsAt: START,
      endsAt: END,
      at: NOW,
      paymentExpiresAt: minutesAfter(NOW, 30),
      amountDueNowInCents: 4000,
    });
    const requested = await insertBooking(db, {
      ...shop,
      status: 'REQUESTED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    for (const id of [confirmed, pending]) {
      const { afterCommit } = await inTrx((trx) =>
        cancelBooking(trx, ctxOf(shop.organizationId), id, { ...MERCHANT, notifyCustomer: false }),
      );
      await afterCommit();
      expect((await statusOf(shop.organizationId, id)).status).toBe('CANCELLED');
      expect(await liveClaimsOf(db, shop.organizationId, id, NOW)).toHaveLength(0);
      expect((await auditActions(shop.organizationId, id)).map((entry) => entry.action)).toEqual([
        'booking.cancelled',
      ]);
    }
    expect(await emailsOf(shop.organizationId)).toEqual([]);
    expect(
      await codeOf(() => inTrx((trx) => cancelBooking(trx, ctxOf(shop.organizationId), requested, MERCHANT))),
    ).toBe('INVALID_STATE_TRANSITION');
    // A customer cancels a REQUESTED booking at once; the merchant is told (when an address is set).
    await inTrx((trx) => cancelBooking(trx, ctxOf(shop.organizationId), requested, { actor: 'CUSTOMER' }));
    expect((await statusOf(shop.organizationId, requested)).status).toBe('CANCELLED');
    expect(await auditActions(shop.organizationId, requested)).toEqual([]);
    // Terminal bookings take no action.
    const terminalActions: ((trx: Kysely<Database>) => Promise<unknown>)[] = [
      (trx: Kysely<Database>) => cancelBooking(trx, ctxOf(shop.organizationId), confirmed, MERCHANT),
      (trx: Kysely<Database>) => approveBooking(trx, ctxOf(shop.organizationId), confirmed, {}, MERCHANT),
      (trx: Kysely<Database>) =>
        rescheduleBooking(
          trx,
          ctxOf(shop.organizationId),
          confirmed,
          { startsAt: START, endsAt: END },
          MERCHANT,
        ),
    ];
    for (const run of terminalActions) {
      expect(await codeOf(() => inTrx(run))).toBe('INVALID_STATE_TRANSITION');
    }
  });

  it('reschedules a CONFIRMED booking by 30 minutes on capacity 1; a blocked move keeps the original', async () => {
    const shop = await bookingShop(db, 'reschedule', { now: NOW });
    const id = await insertBooking(db, {
      ...shop,
      status: 'CONFIRMED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    const moved = { startsAt: minutesAfter(START, 30), endsAt: minutesAfter(END, 60) };
    await inTrx((trx) => rescheduleBooking(trx, ctxOf(shop.organizationId), id, moved, MERCHANT));
    let row = await statusOf(shop.organizationId, id);
    expect(new Date(row.starts_at).toISOString()).toBe(moved.startsAt.toISOString());
    expect(new Date(row.ends_at).toISOString()).toBe(moved.endsAt.toISOString());
    expect(await liveClaimsOf(db, shop.organizationId, id, NOW)).toHaveLength(1);
    const audit = await auditActions(shop.organizationId, id);
    expect(audit.map((entry) => entry.action)).toEqual(['booking.rescheduled']);
    expect(audit[0]!.metadata).toMatchObject({
      oldStartsAt: START.toISOString(),
      newStartsAt: moved.startsAt.toISOString(),
      newEndsAt: moved.endsAt.toISOString(),
    });

    const blocker = await insertBooking(db, {
      ...shop,
      status: 'CONFIRMED',
      startsAt: minutesAfter(START, 240),
      endsAt: minutesAfter(START, 300),
      at: NOW,
    });
    expect(blocker).toBeTruthy();
    expect(
      await codeOf(() =>
        inTrx((trx) =>
          rescheduleBooking(
            trx,
            ctxOf(shop.organizationId),
            id,
            { startsAt: minutesAfter(START, 240), endsAt: minutesAfter(START, 300) },
            MERCHANT,
          ),
        ),
      ),
    ).toBe('CAPACITY_UNAVAILABLE');
    row = await statusOf(shop.organizationId, id);
    expect(new Date(row.starts_at).toISOString()).toBe(moved.startsAt.toISOString());
    expect(await liveClaimsOf(db, shop.organizationId, id, NOW)).toHaveLength(1);
  });

  it('applies the time rules to a reschedule unless ignoreRules; REQUESTED and PENDING_PAYMENT are never rescheduled', async () => {
    const shop = await bookingShop(db, 'reschedule-rules', { now: NOW });
    const id = await insertBooking(db, {
      ...shop,
      status: 'CONFIRMED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    const far = { startsAt: minutesAfter(NOW, 90 * 1440), endsAt: minutesAfter(NOW, 90 * 1440 + 60) };
    expect(
      await codeOf(() =>
        inTrx((trx) => rescheduleBooking(trx, ctxOf(shop.organizationId), id, far, MERCHANT)),
      ),
    ).toBe('BOOKING_SLOT_UNAVAILABLE');
    await inTrx((trx) =>
      rescheduleBooking(trx, ctxOf(shop.organizationId), id, { ...far, ignoreRules: true }, MERCHANT),
    );
    expect(new Date((await statusOf(shop.organizationId, id)).starts_at).toISOString()).toBe(
      far.startsAt.toISOString(),
    );
    for (const status of ['REQUESTED', 'PENDING_PAYMENT'] as const) {
      const other = await insertBooking(db, {
        ...shop,
        status,
        startsAt: minutesAfter(START, 600),
        endsAt: minutesAfter(START, 660),
        at: NOW,
        paymentExpiresAt: minutesAfter(NOW, 30),
      });
      expect(
        await codeOf(() =>
          inTrx((trx) =>
            rescheduleBooking(
              trx,
              ctxOf(shop.organizationId),
              other,
              { startsAt: START, endsAt: END },
              MERCHANT,
            ),
          ),
        ),
      ).toBe('INVALID_STATE_TRANSITION');
    }
  });

  it('approves and declines change requests', async () => {
    const shop = await bookingShop(db, 'change-requests', { now: NOW });
    const id = await insertBooking(db, {
      ...shop,
      status: 'CONFIRMED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    const request = async (kind: 'CANCEL' | 'RESCHEDULE', startsAt?: Date, endsAt?: Date) => {
      const requestId = `bcr_${newId('req', NOW).slice(4)}`;
      await db
        .insertInto('booking_change_requests')
        .values({
          organization_id: shop.organizationId,
          id: requestId,
          booking_id: id,
          kind,
          status: 'PENDING',
          starts_at: startsAt ?? null,
          ends_at: endsAt ?? null,
          reason: 'Plans changed',
          actor: 'CUSTOMER',
          decided_by_user_id: null,
          decision_reason: null,
          decided_at: null,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
      return requestId;
    };
    const declined = await request('RESCHEDULE', minutesAfter(START, 120), minutesAfter(END, 120));
    await inTrx((trx) =>
      declineChangeRequest(trx, ctxOf(shop.organizationId), id, declined, { ...MERCHANT, reason: 'No' }),
    );
    const reschedule = await request('RESCHEDULE', minutesAfter(START, 120), minutesAfter(END, 120));
    await inTrx((trx) => approveChangeRequest(trx, ctxOf(shop.organizationId), id, reschedule, MERCHANT));
    expect(new Date((await statusOf(shop.organizationId, id)).starts_at).toISOString()).toBe(
      minutesAfter(START, 120).toISOString(),
    );
    // A decided request is not decided again.
    expect(
      await codeOf(() =>
        inTrx((trx) => approveChangeRequest(trx, ctxOf(shop.organizationId), id, reschedule, MERCHANT)),
      ),
    ).toBe('INVALID_STATE_TRANSITION');
    const cancel = await request('CANCEL');
    const { afterCommit } = await inTrx((trx) =>
      approveChangeRequest(trx, ctxOf(shop.organizationId), id, cancel, MERCHANT),
    );
    await afterCommit();
    expect((await statusOf(shop.organizationId, id)).status).toBe('CANCELLED');
    const requests = await db
      .selectFrom('booking_change_requests')
      .select(['id', 'status'])
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(Object.fromEntries(requests.map((row) => [row.id, row.status]))).toEqual({
      [declined]: 'DECLINED',
      [reschedule]: 'APPROVED',
      [cancel]: 'APPROVED',
    });
    expect((await auditActions(shop.organizationId, id)).map((entry) => entry.action)).toEqual([
      'booking.change_request_declined',
      'booking.change_request_approved',
      'booking.change_request_approved',
    ]);
    expect(await emailsOf(shop.organizationId)).toEqual([
      'CHANGE_REQUEST_DECLINED',
      'CHANGE_REQUEST_APPROVED',
      'CHANGE_REQUEST_APPROVED',
    ]);
    expect(
      await codeOf(() =>
        inTrx((trx) => approveChangeRequest(trx, ctxOf(shop.organizationId), id, 'bcr_unknown', MERCHANT)),
      ),
    ).toBe('RESOURCE_NOT_FOUND');
  });

  it('sets assignees among active members only, at most 20', async () => {
    const shop = await bookingShop(db, 'assignees', { now: NOW });
    const userId = newId('usr', NOW);
    await db
      .insertInto('merchant_users')
      .values({
        id: userId,
        subject: `sub-${userId}`,
        email: 'staff@shop.test',
        email_verified: true,
        name: 'Staff',
      })
      .execute();
    await db
      .insertInto('memberships')
      .values({
        organization_id: shop.organizationId,
        id: newId('mem', NOW),
        user_id: userId,
        email: 'staff@shop.test',
        invited_name: null,
        role: 'Staff',
        permissions: JSON.stringify(['bookings:manage']),
        status: 'ACTIVE',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    const id = await insertBooking(db, {
      ...shop,
      status: 'CONFIRMED',
      startsAt: START,
      endsAt: END,
      at: NOW,
    });
    expect(await isBookingAssignedTo(db, shop.organizationId, id, userId)).toBe(false);
    expect(
      await codeOf(() =>
        inTrx((trx) =>
          setBookingAssignees(trx, ctxOf(shop.organizationId), id, [userId, 'usr_stranger'], MERCHANT),
        ),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(() =>
        inTrx((trx) =>
          setBookingAssignees(
            trx,
            ctxOf(shop.organizationId),
            id,
            Array.from({ length: 21 }, (_, index) => `usr_${index}`),
            MERCHANT,
          ),
        ),
      ),
    ).toBe('VALIDATION_FAILED');
    await inTrx((trx) => setBookingAssignees(trx, ctxOf(shop.organizationId), id, [userId], MERCHANT));
    expect(await isBookingAssignedTo(db, shop.organizationId, id, userId)).toBe(true);
    const audit = await auditActions(shop.organizationId, id);
    expect(audit.map((entry) => entry.action)).toEqual(['booking.assignees_updated']);
    expect(audit[0]!.metadata).toMatchObject({ fromUserIds: [], toUserIds: [userId] });
  });
});

describe(`merchant booking creation (${testDatabaseKind})`, () => {
  const body = (serviceId: string, overrides: Record<string, unknown> = {}) =>
    createMerchantBookingInputSchema.parse({
      serviceId,
      startsAt: '2026-07-10T10:00:00Z',
      endsAt: '2026-07-10T11:00:00Z',
      quantity: 1,
      customer: { name: 'Grace Hopper', email: 'Grace@Example.test' },
      ...overrides,
    });
  const actor = { userId: 'usr_owner', email: 'owner@shop.test' };

  it('creates a CONFIRMED booking with its claim, code, history, audit and email; a same-key call replays it', async () => {
    const shop = await bookingShop(db, 'create', { now: NOW });
    const options = { currency: 'EUR', idempotencyKey: 'create-key-0000000001', actor };
    const first = await createMerchantBooking(db, ctxOf(shop.organizationId), body(shop.serviceId), options);
    expect(first.replayed).toBe(false);
    expect(first.booking).toMatchObject({
      status: 'CONFIRMED',
      startsAt: '2026-07-10T10:00:00+00:00',
      price: { currency: 'EUR', subtotalInCents: 4000, totalInCents: 4000 },
      history: [{ from: null, to: 'CONFIRMED', actor: 'MERCHANT', userId: 'usr_owner' }],
      allocations: [{ resourceId: shop.resourceId, quantity: 1, selection: 'AUTO' }],
    });
    expect(first.booking.code).toMatch(/^BK-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(await liveClaimsOf(db, shop.organizationId, first.booking.id, NOW)).toHaveLength(1);
    expect((await auditActions(shop.organizationId, first.booking.id)).map((entry) => entry.action)).toEqual([
      'booking.created',
    ]);
    const again = await createMerchantBooking(db, ctxOf(shop.organizationId), body(shop.serviceId), options);
    expect(again.replayed).toBe(true);
    expect(again.booking.id).toBe(first.booking.id);
    expect(
      await codeOf(() =>
        createMerchantBooking(db, ctxOf(shop.organizationId), body(shop.serviceId), {
          ...options,
          idempotencyKey: 'create-key-0000000002',
        }),
      ),
    ).toBe('CAPACITY_UNAVAILABLE');
  });

  it('checks the time rules unless ignoreRules, and the shape always', async () => {
    const shop = await bookingShop(db, 'create-rules', { now: NOW });
    const far = { startsAt: '2026-10-10T10:00:00Z', endsAt: '2026-10-10T11:00:00Z' };
    const options = (key: string) => ({ currency: 'EUR', idempotencyKey: `rules-key-${key}-000000`, actor });
    expect(
      await codeOf(() =>
        createMerchantBooking(db, ctxOf(shop.organizationId), body(shop.serviceId, far), options('a')),
      ),
    ).toBe('BOOKING_SLOT_UNAVAILABLE');
    const created = await createMerchantBooking(
      db,
      ctxOf(shop.organizationId),
      body(shop.serviceId, { ...far, ignoreRules: true }),
      options('b'),
    );
    expect(created.booking.status).toBe('CONFIRMED');
    expect(
      await codeOf(() =>
        createMerchantBooking(
          db,
          ctxOf(shop.organizationId),
          body(shop.serviceId, { endsAt: '2026-07-10T10:45:00Z', ignoreRules: true }),
          options('c'),
        ),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(() =>
        createMerchantBooking(db, ctxOf(shop.organizationId), body('bks_unknown'), options('d')),
      ),
    ).toBe('RESOURCE_NOT_FOUND');
  });
});

describe(`merchant list and Staff visibility (${testDatabaseKind})`, () => {
  it('filters, orders both ways with a keyset cursor, and shows Staff only their assigned bookings', async () => {
    const staffUser = 'usr_staff_guide';
    const shop = await bookingShop(db, 'list', { now: NOW, capacity: 5, userId: staffUser });
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      ids.push(
        await insertBooking(db, {
          ...shop,
          status: index % 2 === 0 ? 'CONFIRMED' : 'REQUESTED',
          startsAt: minutesAfter(START, index * 120),
          endsAt: minutesAfter(START, index * 120 + 60),
          at: NOW,
          email: index === 3 ? 'Special@Example.test' : 'ada@example.test',
        }),
      );
    }
    const list = (
      query: Record<string, unknown>,
      viewer: Parameters<typeof listMerchantBookings>[2] = { scope: 'ALL' },
    ) => listMerchantBookings(db, shop.organizationId, viewer, merchantBookingListQuerySchema.parse(query));

    expect((await list({})).data.map((row) => row.id)).toEqual(ids);
    expect((await list({ order: 'desc' })).data.map((row) => row.id)).toEqual([...ids].reverse());
    const firstPage = await list({ limit: '2', order: 'desc' });
    expect(firstPage.data.map((row) => row.id)).toEqual([ids[4], ids[3]]);
    const secondPage = await list({ limit: '2', order: 'desc', cursor: firstPage.nextCursor });
    expect(secondPage.data.map((row) => row.id)).toEqual([ids[2], ids[1]]);
    expect((await list({ status: 'REQUESTED' })).data.map((row) => row.id)).toEqual([ids[1], ids[3]]);
    expect((await list({ status: 'CONFIRMED,REQUESTED' })).data).toHaveLength(5);
    expect((await list({ customerEmail: 'special@example.TEST' })).data.map((row) => row.id)).toEqual([
      ids[3],
    ]);
    expect((await list({ resourceId: shop.resourceId })).data).toHaveLength(5);
    expect((await list({ resourceId: 'brs_other' })).data).toHaveLength(0);
    expect((await list({ serviceId: shop.serviceId })).data).toHaveLength(5);
    expect(
      (
        await list({
          from: minutesAfter(START, 180).toISOString(),
          to: minutesAfter(START, 250).toISOString(),
        })
      ).data.map((row) => row.id),
    ).toEqual([ids[2]]);
    expect((await list({ groupRef: 'gr1_0123' })).data).toHaveLength(0);
    expect((await list({ hasPendingChangeRequest: 'true' })).data).toHaveLength(0);
    expect((await list({ hasPendingChangeRequest: 'false' })).data).toHaveLength(5);
    expect(() => merchantBookingListQuerySchema.parse({ status: 'BOGUS' })).toThrow();

    // The STAFF resource belongs to staffUser: every booking is theirs; another Staff sees none.
    expect((await list({}, { scope: 'ASSIGNED', userId: staffUser })).data).toHaveLength(5);
    expect((await list({}, { scope: 'ASSIGNED', userId: 'usr_someone_else' })).data).toHaveLength(0);
    expect(
      await codeOf(() =>
        assertBookingVisible(db, shop.organizationId, ids[0]!, {
          scope: 'ASSIGNED',
          userId: 'usr_someone_else',
        }),
      ),
    ).toBe('RESOURCE_NOT_FOUND');
    await assertBookingVisible(db, shop.organizationId, ids[0]!, { scope: 'ASSIGNED', userId: staffUser });
    // Named as an assignee, another Staff sees that booking only.
    await db
      .updateTable('bookings')
      .set({ assignee_user_ids: ['usr_someone_else'] })
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', ids[2]!)
      .execute();
    expect(
      (await list({}, { scope: 'ASSIGNED', userId: 'usr_someone_else' })).data.map((row) => row.id),
    ).toEqual([ids[2]]);
    // A cursor naming a booking the viewer cannot see is 400.
    expect(
      await codeOf(() => list({ cursor: ids[0] }, { scope: 'ASSIGNED', userId: 'usr_someone_else' })),
    ).toBe('VALIDATION_FAILED');
  });
});
