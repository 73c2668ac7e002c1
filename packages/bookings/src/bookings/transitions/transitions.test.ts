import { AppError, newId } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import type { TaxProvider } from '@commerce/orders';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingShop, EMAIL, insertBooking, liveClaimsOf } from '../../../test/booking-factories.ts';
import { minutesAfter } from '../../../test/factories.ts';
import { type DistanceProvider, sandboxDistanceProvider } from '../../delivery/distance-provider.ts';
import { parseDeliverySnapshot } from '../../delivery/schemas.ts';
import { createHold } from '../../holds/holds.ts';
import { createHoldInputSchema } from '../../holds/schemas.ts';
import { readBookingDetail } from '../booking-read.ts';
import { createMerchantBooking } from '../create-booking.ts';
import { assertBookingVisible, listMerchantBookings } from '../merchant-access.ts';
import { createMerchantBookingInputSchema, merchantBookingListQuerySchema } from '../merchant-schemas.ts';
import { isBookingAssignedTo } from '../payment-link.ts';
import { approveBooking } from './approve-booking.ts';
import { approveChangeRequest } from './approve-change-request.ts';
import { cancelBooking } from './cancel-booking.ts';
import { declineBooking } from './decline-booking.ts';
import { declineChangeRequest } from './decline-change-request.ts';
import { rescheduleBooking } from './reschedule-booking.ts';
import { setBookingAssignees } from './set-booking-assignees.ts';
import type { TransitionBy } from './transition-steps.ts';

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
    const options = {
      currency: 'EUR',
      idempotencyKey: 'create-key-0000000001',
      actor,
      distance: sandboxDistanceProvider,
    };
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
    const options = (key: string) => ({
      currency: 'EUR',
      idempotencyKey: `rules-key-${key}-000000`,
      actor,
      distance: sandboxDistanceProvider,
    });
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

describe(`merchant booking delivery and tax (${testDatabaseKind})`, () => {
  const ORIGIN = { line1: 'Rua Augusta 1', city: 'Lisboa', postalCode: '1100-048', country: 'PT' };
  const BANDS = [
    { label: 'Centre', maxDistanceMeters: 5000, feeInCents: 500 },
    { label: 'Greater Lisbon', maxDistanceMeters: 20_000, feeInCents: 1500 },
  ];
  const OPTIONAL = { mode: 'OPTIONAL', originAddress: ORIGIN, bands: BANDS };
  const delivered = (postalCode: string, country = 'pt') => ({
    method: 'DELIVERY',
    destinationAddress: { line1: '  Rua do Ouro 2 ', city: 'Lisboa', postalCode: ` ${postalCode} `, country },
  });
  const actor = { userId: 'usr_owner', email: 'owner@shop.test' };
  const body = (serviceId: string, overrides: Record<string, unknown> = {}) =>
    createMerchantBookingInputSchema.parse({
      serviceId,
      startsAt: '2026-07-10T10:00:00Z',
      endsAt: '2026-07-10T11:00:00Z',
      quantity: 1,
      customer: { name: 'Grace Hopper', email: 'grace@example.test' },
      ...overrides,
    });

  /** Idempotency records of the tenant: a provider asked before the transaction sees none for its key. */
  const keyCount = async (organizationId: string) =>
    (
      await db
        .selectFrom('idempotency_keys')
        .select('key_hash')
        .where('organization_id', '=', organizationId)
        .execute()
    ).length;

  /** The sandbox distance, counting its calls (and the keys recorded then) until `isDown`. */
  function countingDistance(organizationId: string) {
    const state = { isDown: false, calls: [] as number[] };
    const provider: DistanceProvider = {
      kind: 'sandbox',
      async distance(request) {
        state.calls.push(await keyCount(organizationId));
        if (state.isDown) throw new Error('connect ECONNREFUSED');
        return sandboxDistanceProvider.distance(request);
      },
    };
    return { provider, state };
  }

  /** 10 % of goods and delivery (or the part of them that is tax), counting its calls and countries. */
  function countingTax(organizationId: string, pricesIncludeTax = false) {
    const state = { isDown: false, countries: [] as (string | null)[], keysSeen: [] as number[] };
    const provider: TaxProvider = {
      kind: 'sandbox',
      async quote(input) {
        state.keysSeen.push(await keyCount(organizationId));
        state.countries.push(input.country);
        if (state.isDown) throw new Error('tax service unavailable');
        const base = input.subtotalInCents + input.shippingInCents;
        return {
          taxInCents: input.pricesIncludeTax ? Math.round(base - base / 1.1) : Math.round(base * 0.1),
          rateBasisPoints: 1000,
        };
      },
    };
    return { tax: { provider, pricesIncludeTax }, state };
  }

  async function rowsOf(organizationId: string) {
    const count = async (
      table: 'bookings' | 'booking_capacity_claims' | 'idempotency_keys' | 'sales_records',
    ) =>
      (
        await db
          .selectFrom(table)
          .select(sql<number>`count(*)::int`.as('count'))
          .where('organization_id', '=', organizationId)
          .executeTakeFirstOrThrow()
      ).count;
    return {
      bookings: await count('bookings'),
      claims: await count('booking_capacity_claims'),
      keys: await count('idempotency_keys'),
      sales: await count('sales_records'),
    };
  }

  async function refusalOf(run: () => Promise<unknown>) {
    try {
      await run();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { code: error.code, status: error.status, details: error.details };
    }
    throw new Error('expected a refusal');
  }

  let holdKeys = 0;
  /** The same request as a public hold, for its answer. */
  function holdFor(organizationId: string, serviceId: string, delivery: unknown) {
    holdKeys += 1;
    return createHold(
      db,
      { organizationId, at: NOW, clientAddress: `198.51.100.${holdKeys}` },
      createHoldInputSchema.parse({
        serviceId,
        startsAt: '2026-07-10T10:00:00Z',
        endsAt: '2026-07-10T11:00:00Z',
        quantity: 1,
        customerEmail: 'grace@example.test',
        delivery,
      }),
      {
        currency: 'EUR',
        idempotencyKey: `hold-compare-key-${holdKeys}-0000`,
        distance: sandboxDistanceProvider,
      },
    );
  }

  it('freezes the delivery snapshot and fee: the total is the subtotal plus the fee; pickup stays null', async () => {
    const shop = await bookingShop(db, 'create-delivery', {
      now: NOW,
      capacity: 2,
      serviceOverrides: { delivery: OPTIONAL },
    });
    const { provider, state } = countingDistance(shop.organizationId);
    const created = await createMerchantBooking(
      db,
      ctxOf(shop.organizationId),
      body(shop.serviceId, { delivery: delivered('12000') }),
      { currency: 'EUR', idempotencyKey: 'delivery-key-0000000001', actor, distance: provider },
    );
    expect(state.calls).toEqual([0]);
    expect(created.booking).toMatchObject({
      status: 'CONFIRMED',
      delivery: {
        method: 'DELIVERY',
        destinationAddress: {
          line1: 'Rua do Ouro 2',
          line2: null,
          city: 'Lisboa',
          state: null,
          postalCode: '12000',
          country: 'PT',
        },
        distanceMeters: 12_000,
        band: { label: 'Greater Lisbon', maxDistanceMeters: 20_000 },
        feeInCents: 1500,
      },
      price: { subtotalInCents: 4000, deliveryFeeInCents: 1500, taxInCents: 0, totalInCents: 5500 },
    });
    const row = await db
      .selectFrom('bookings')
      .select(['delivery', 'delivery_fee_in_cents', 'total_in_cents', 'sales_record_id'])
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', created.booking.id)
      .executeTakeFirstOrThrow();
    // Frozen as a hold freezes it, readable by conversion's strict reader.
    expect(parseDeliverySnapshot({ delivery: row.delivery })).toEqual({
      method: 'DELIVERY',
      address: {
        line1: 'Rua do Ouro 2',
        line2: null,
        city: 'Lisboa',
        state: null,
        postalCode: '12000',
        country: 'PT',
      },
      addressSummary: 'Lisboa, 12000, PT',
      distanceMeters: 12_000,
      band: { label: 'Greater Lisbon', maxDistanceMeters: 20_000 },
      area: 'Greater Lisbon',
      feeInCents: 1500,
      evaluatedAt: NOW.toISOString(),
    });
    const lines = await db
      .selectFrom('sales_record_lines')
      .select(['type', 'name', 'unit_price_in_cents'])
      .where('sales_record_id', '=', row.sales_record_id!)
      .orderBy('position')
      .execute();
    expect(lines.map((line) => [line.type, line.name, line.unit_price_in_cents])).toEqual([
      ['SERVICE', expect.any(String), 4000],
      ['FEE', 'Delivery (Greater Lisbon)', 1500],
    ]);

    const pickup = await createMerchantBooking(
      db,
      ctxOf(shop.organizationId),
      body(shop.serviceId, { delivery: { method: 'PICKUP' } }),
      { currency: 'EUR', idempotencyKey: 'delivery-key-0000000002', actor, distance: provider },
    );
    expect(pickup.booking.delivery).toBeNull();
    expect(pickup.booking.price).toMatchObject({ deliveryFeeInCents: 0, totalInCents: 4000 });
    expect(state.calls).toHaveLength(1);
  });

  it('freezes the tax quoted before the transaction: the delivery country, else the business country; included tax is not added', async () => {
    const shop = await bookingShop(db, 'create-tax', {
      now: NOW,
      capacity: 3,
      serviceOverrides: { delivery: { mode: 'OPTIONAL', originAddress: ORIGIN, flatFeeInCents: 700 } },
    });
    await db
      .insertInto('organization_settings')
      .values({
        organization_id: shop.organizationId,
        business_profile: JSON.stringify({ address: { country: 'DE' } }),
      })
      .execute();
    const added = countingTax(shop.organizationId);
    const delivery = await createMerchantBooking(
      db,
      ctxOf(shop.organizationId),
      body(shop.serviceId, { delivery: delivered('1000', 'fr') }),
      {
        currency: 'EUR',
        idempotencyKey: 'tax-key-00000000000001',
        actor,
        distance: sandboxDistanceProvider,
        tax: added.tax,
      },
    );
    expect(added.state).toMatchObject({ countries: ['FR'], keysSeen: [0] });
    expect(delivery.booking.price).toEqual({
      currency: 'EUR',
      subtotalInCents: 4000,
      deliveryFeeInCents: 700,
      taxInCents: 470,
      totalInCents: 5170,
    });
    const pickup = await createMerchantBooking(db, ctxOf(shop.organizationId), body(shop.serviceId), {
      currency: 'EUR',
      idempotencyKey: 'tax-key-00000000000002',
      actor,
      distance: sandboxDistanceProvider,
      tax: added.tax,
    });
    expect(added.state.countries).toEqual(['FR', 'DE']);
    expect(pickup.booking.price).toMatchObject({ taxInCents: 400, totalInCents: 4400 });

    const included = countingTax(shop.organizationId, true);
    const within = await createMerchantBooking(db, ctxOf(shop.organizationId), body(shop.serviceId), {
      currency: 'EUR',
      idempotencyKey: 'tax-key-00000000000003',
      actor,
      distance: sandboxDistanceProvider,
      tax: included.tax,
    });
    expect(within.booking.price).toMatchObject({
      subtotalInCents: 4000,
      taxInCents: 364,
      totalInCents: 4000,
    });
    const sales = await db
      .selectFrom('bookings as b')
      .innerJoin('sales_records as s', 's.id', 'b.sales_record_id')
      .select(['b.id', 's.tax_in_cents', 's.tax_included', 's.total_in_cents'])
      .where('b.organization_id', '=', shop.organizationId)
      .execute();
    const saleOf = (id: string) => sales.find((sale) => sale.id === id);
    expect(saleOf(delivery.booking.id)).toMatchObject({
      tax_in_cents: 470,
      tax_included: false,
      total_in_cents: 5170,
    });
    expect(saleOf(within.booking.id)).toMatchObject({
      tax_in_cents: 364,
      tax_included: true,
      total_in_cents: 4000,
    });
  });

  it('refuses a delivery as a hold does, with its code and path, whatever ignoreRules; nothing is booked or recorded', async () => {
    const pickupOnly = await bookingShop(db, 'create-pickup-only', { now: NOW });
    const hold = await refusalOf(() =>
      holdFor(pickupOnly.organizationId, pickupOnly.serviceId, delivered('1000')),
    );
    expect(hold).toMatchObject({
      code: 'BOOKING_DELIVERY_INVALID',
      status: 400,
      details: { issues: [{ path: 'delivery.method' }] },
    });
    for (const [key, ignoreRules] of [
      ['pickup-only-key-000001', false],
      ['pickup-only-key-000002', true],
    ] as const) {
      expect(
        await refusalOf(() =>
          createMerchantBooking(
            db,
            ctxOf(pickupOnly.organizationId),
            body(pickupOnly.serviceId, { delivery: delivered('1000'), ignoreRules }),
            { currency: 'EUR', idempotencyKey: key, actor, distance: sandboxDistanceProvider },
          ),
        ),
      ).toEqual(hold);
    }

    const required = await bookingShop(db, 'create-delivery-only', {
      now: NOW,
      serviceOverrides: { delivery: { ...OPTIONAL, mode: 'REQUIRED' } },
    });
    const pickupRefused = await refusalOf(() => holdFor(required.organizationId, required.serviceId, null));
    expect(pickupRefused).toMatchObject({
      code: 'BOOKING_DELIVERY_INVALID',
      details: { issues: [{ path: 'delivery' }] },
    });
    expect(
      await refusalOf(() =>
        createMerchantBooking(
          db,
          ctxOf(required.organizationId),
          body(required.serviceId, { ignoreRules: true }),
          {
            currency: 'EUR',
            idempotencyKey: 'delivery-only-key-0001',
            actor,
            distance: sandboxDistanceProvider,
          },
        ),
      ),
    ).toEqual(pickupRefused);
    const beyond = await refusalOf(() =>
      holdFor(required.organizationId, required.serviceId, delivered('20001')),
    );
    expect(beyond).toMatchObject({
      code: 'BOOKING_DELIVERY_OUT_OF_RANGE',
      status: 400,
      details: { issues: [{ path: 'delivery.destinationAddress' }] },
    });
    expect(
      await refusalOf(() =>
        createMerchantBooking(
          db,
          ctxOf(required.organizationId),
          body(required.serviceId, { delivery: delivered('20001') }),
          {
            currency: 'EUR',
            idempotencyKey: 'delivery-only-key-0002',
            actor,
            distance: sandboxDistanceProvider,
          },
        ),
      ),
    ).toEqual(beyond);
    expect(await rowsOf(pickupOnly.organizationId)).toEqual({ bookings: 0, claims: 0, keys: 0, sales: 0 });
    expect(await rowsOf(required.organizationId)).toMatchObject({ bookings: 0, keys: 0 });
  });

  it('replays a recorded key without rating or quoting again, even with the providers down', async () => {
    const shop = await bookingShop(db, 'create-delivery-replay', {
      now: NOW,
      capacity: 2,
      serviceOverrides: { delivery: OPTIONAL },
    });
    const distance = countingDistance(shop.organizationId);
    const tax = countingTax(shop.organizationId);
    const request = body(shop.serviceId, { delivery: delivered('4000') });
    const options = {
      currency: 'EUR',
      idempotencyKey: 'delivery-replay-key-0001',
      actor,
      distance: distance.provider,
      tax: tax.tax,
    };
    const first = await createMerchantBooking(db, ctxOf(shop.organizationId), request, options);
    expect(first.replayed).toBe(false);
    expect(first.booking.price).toMatchObject({
      deliveryFeeInCents: 500,
      taxInCents: 450,
      totalInCents: 4950,
    });
    distance.state.isDown = true;
    tax.state.isDown = true;
    const again = await createMerchantBooking(
      db,
      ctxOf(shop.organizationId, minutesAfter(NOW, 5)),
      request,
      options,
    );
    expect(again.replayed).toBe(true);
    expect(again.booking).toEqual(first.booking);
    expect(
      (
        await refusalOf(() =>
          createMerchantBooking(
            db,
            ctxOf(shop.organizationId),
            body(shop.serviceId, { delivery: delivered('4001') }),
            options,
          ),
        )
      ).code,
    ).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(distance.state.calls).toEqual([0]);
    expect(tax.state.keysSeen).toEqual([0]);
    expect(await rowsOf(shop.organizationId)).toEqual({ bookings: 1, claims: 1, keys: 1, sales: 1 });
  });

  it('records nothing when a provider fails: the same key runs again', async () => {
    const shop = await bookingShop(db, 'create-delivery-retry', {
      now: NOW,
      serviceOverrides: { delivery: OPTIONAL },
    });
    const distance = countingDistance(shop.organizationId);
    const tax = countingTax(shop.organizationId);
    const request = body(shop.serviceId, { delivery: delivered('4000') });
    const options = {
      currency: 'EUR',
      idempotencyKey: 'delivery-retry-key-0001',
      actor,
      distance: distance.provider,
      tax: tax.tax,
    };
    distance.state.isDown = true;
    expect(
      await refusalOf(() => createMerchantBooking(db, ctxOf(shop.organizationId), request, options)),
    ).toEqual({
      code: 'BOOKING_DELIVERY_UNAVAILABLE',
      status: 503,
      details: { issues: [{ path: 'delivery.destinationAddress', message: expect.any(String) }] },
    });
    expect(tax.state.keysSeen).toEqual([]);
    expect(await rowsOf(shop.organizationId)).toEqual({ bookings: 0, claims: 0, keys: 0, sales: 0 });

    distance.state.isDown = false;
    tax.state.isDown = true;
    await expect(createMerchantBooking(db, ctxOf(shop.organizationId), request, options)).rejects.toThrow(
      'tax service unavailable',
    );
    expect(await rowsOf(shop.organizationId)).toEqual({ bookings: 0, claims: 0, keys: 0, sales: 0 });

    tax.state.isDown = false;
    const created = await createMerchantBooking(db, ctxOf(shop.organizationId), request, options);
    expect(created.replayed).toBe(false);
    expect(created.booking.price).toMatchObject({
      deliveryFeeInCents: 500,
      taxInCents: 450,
      totalInCents: 4950,
    });
    expect(distance.state.calls).toEqual([0, 0, 0]);
    expect(await rowsOf(shop.organizationId)).toEqual({ bookings: 1, claims: 1, keys: 1, sales: 1 });
  });

  it('refuses with 409 STALE_STATE, recording nothing, when the price changes after the tax was quoted', async () => {
    const shop = await bookingShop(db, 'create-tax-stale', { now: NOW });
    const { tax } = countingTax(shop.organizationId);
    const repricing: TaxProvider = {
      kind: 'sandbox',
      async quote(input) {
        // The merchant edits the price while the provider answers.
        const { pricing } = await db
          .selectFrom('booking_services')
          .select('pricing')
          .where('id', '=', shop.serviceId)
          .executeTakeFirstOrThrow();
        await db
          .updateTable('booking_services')
          .set({ pricing: JSON.stringify({ ...(pricing as object), amountInCents: 5000 }) })
          .where('organization_id', '=', shop.organizationId)
          .where('id', '=', shop.serviceId)
          .execute();
        return tax.provider.quote(input);
      },
    };
    const options = {
      currency: 'EUR',
      idempotencyKey: 'tax-stale-key-000000001',
      actor,
      distance: sandboxDistanceProvider,
      tax: { provider: repricing, pricesIncludeTax: false },
    };
    expect(
      (
        await refusalOf(() =>
          createMerchantBooking(db, ctxOf(shop.organizationId), body(shop.serviceId), options),
        )
      ).code,
    ).toBe('STALE_STATE');
    expect(await rowsOf(shop.organizationId)).toEqual({ bookings: 0, claims: 0, keys: 0, sales: 0 });
    const retried = await createMerchantBooking(db, ctxOf(shop.organizationId), body(shop.serviceId), {
      ...options,
      tax,
    });
    expect(retried.booking.price).toMatchObject({
      subtotalInCents: 5000,
      taxInCents: 500,
      totalInCents: 5500,
    });
  });
});
