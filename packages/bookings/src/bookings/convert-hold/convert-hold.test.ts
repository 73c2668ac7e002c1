import { hashToken, isTokenOf } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import {
  createPaymentSession,
  expireCheckoutSessions,
  findSessionByToken,
  runPaymentActions,
  settlePaymentEvent,
} from '@commerce/orders';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, insertResource, writeContext } from '../../../test/factories.ts';
import { readLiveClaims } from '../../capacity/live-claims.ts';
import { sandboxDistanceProvider } from '../../delivery/distance-provider.ts';
import { createHold, releaseHold } from '../../holds/holds.ts';
import { createHoldInputSchema } from '../../holds/schemas.ts';
import { createServiceInputSchema } from '../../services/schemas.ts';
import { createService } from '../../services/write-service.ts';
import { checkBookingPayments, closeBookingPayment, readBookingPayments } from '../booking-payments.ts';
import { settleBookingPayment } from '../booking-settlement.ts';
import { createChangeRequest } from '../change-requests.ts';
import { convertHoldInputSchema } from '../convert-schemas.ts';
import { sendBookingPaymentLink } from '../payment-link.ts';
import { dueBookingPaymentLinks, expireBookingPaymentLinks, expireBookingPaymentWindows } from '../sweeps.ts';
import { approveChangeRequest } from '../transitions/approve-change-request.ts';
import { cancelBooking } from '../transitions/cancel-booking.ts';
import { convertHold } from './convert-hold.ts';

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
const START = '2026-07-02T10:00:00+01:00';
const END = '2026-07-02T11:00:00+01:00';
const EMAIL = { emailFrom: 'Shop <no-reply@shop.example>', linkBase: 'https://shop.example' };
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

type PaymentProvider = Parameters<typeof createPaymentSession>[1];

/** A processor for tests: one intent per idempotency key; cancellations recorded. */
function fakeProvider() {
  const intents = new Map<string, string>();
  const cancels: string[] = [];
  const refunds: string[] = [];
  const provider: PaymentProvider = {
    kind: 'sandbox',
    assertChargeable() {},
    async createPaymentIntent(input) {
      let intentId = intents.get(input.idempotencyKey);
      if (!intentId) {
        intentId = `pi_${input.idempotencyKey}`;
        intents.set(input.idempotencyKey, intentId);
      }
      return { intentId, clientSecret: `${intentId}_secret_x`, publishableKey: 'pk_test_fake' };
    },
    async cancelPaymentIntent(intentId) {
      cancels.push(intentId);
      return { outcome: 'canceled' };
    },
    async refundPayment(intentId) {
      refunds.push(intentId);
      return { outcome: 'refunded', refundId: `re_${intentId}` };
    },
    verifyWebhook() {
      throw new Error('not used');
    },
  };
  return { provider, intents, cancels, refunds };
}

interface ShopOptions {
  checkout?: Record<string, unknown>;
  amountInCents?: number;
  capacity?: number;
  agreement?: { title: string; bodyText: string } | null;
  bookingEmail?: string | null;
}

async function shop(label: string, options: ShopOptions = {}) {
  const organizationId = await insertOrganization(db, label);
  const kayaks = await insertResource(db, organizationId, {
    capacity: options.capacity ?? 1,
    name: 'Kayaks',
  });
  const daily = [{ start: '09:00', end: '17:00' }];
  const service = await createService(
    db,
    writeContext(organizationId, NOW),
    createServiceInputSchema.parse({
      slug: 'tour',
      name: 'Tour',
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'Europe/Lisbon',
      durations: { choicesMinutes: [60, 120], startIntervalMinutes: 30 },
      availability: {
        weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily, SAT: daily, SUN: daily },
        bufferAfterMinutes: 15,
        maxAdvanceDays: 30,
      },
      partySize: { min: 1, max: 4 },
      requirements: [{ name: 'Kayaks', resourceIds: [kayaks], units: { mode: 'PER_PARTICIPANT' } }],
      pricing: { basis: 'FLAT', amountInCents: options.amountInCents ?? 2500 },
      checkout: options.checkout ?? { paymentMode: 'PAY_NOW' },
      ...(options.agreement !== undefined ? { agreement: options.agreement } : {}),
    }),
    { currency: 'EUR' },
  );
  if (options.bookingEmail !== null) {
    await db
      .insertInto('organization_settings')
      .values({
        organization_id: organizationId,
        notifications: JSON.stringify({ bookingEmail: options.bookingEmail ?? 'bookings@shop.example' }),
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
  }
  return { organizationId, kayaks, serviceId: service.id };
}

let sequence = 0;
async function hold(
  organizationId: string,
  serviceId: string,
  options: {
    at?: Date;
    email?: string;
    quantity?: number;
    client?: string;
    customer?: { id: string; email: string };
  } = {},
) {
  sequence += 1;
  const key = `convert-key-${sequence}-0123456789`;
  const email = options.email ?? `guest${sequence}@example.com`;
  const { hold: created } = await createHold(
    db,
    {
      organizationId,
      at: options.at ?? NOW,
      clientAddress: options.client ?? `198.51.100.${sequence % 250}`,
      customerId: options.customer?.id ?? null,
      customerVerifiedEmail: options.customer?.email ?? null,
    },
    createHoldInputSchema.parse({
      serviceId,
      startsAt: START,
      endsAt: END,
      quantity: options.quantity ?? 1,
      customerEmail: email,
    }),
    { currency: 'EUR', idempotencyKey: key, distance: sandboxDistanceProvider },
  );
  return { id: created.id, key, email };
}

function convert(
  organizationId: string,
  held: { id: string; key: string; email: string },
  options: {
    at?: Date;
    key?: string;
    body?: Record<string, unknown>;
    customerId?: string | null;
    tax?: Parameters<typeof convertHold>[4]['tax'];
  } = {},
) {
  return convertHold(
    db,
    { organizationId, at: options.at ?? at(5), email: EMAIL, customerId: options.customerId ?? null },
    held.id,
    convertHoldInputSchema.parse({
      customerName: 'Ada Lovelace',
      customerEmail: held.email,
      ...options.body,
    }),
    {
      currency: 'EUR',
      idempotencyKey: options.key ?? held.key,
      ...(options.tax ? { tax: options.tax } : {}),
    },
  );
}

/** A tax provider for tests: 10 % of goods and delivery, or the part of them that is tax. */
const tenPercent = {
  kind: 'sandbox' as const,
  quote: async (input: { subtotalInCents: number; shippingInCents: number; pricesIncludeTax: boolean }) => {
    const base = input.subtotalInCents + input.shippingInCents;
    return {
      taxInCents: input.pricesIncludeTax ? Math.round(base - base / 1.1) : Math.round(base * 0.1),
      rateBasisPoints: 1000,
    };
  },
};

/** The refusal a thunk ends with (never creates a rejecting promise before it is awaited). */
async function refusal(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    const { code, details } = error as { code: string; details?: Record<string, unknown> };
    return { code, details };
  }
  throw new Error('expected a refusal');
}

const bookingRow = (organizationId: string, id: string) =>
  db
    .selectFrom('bookings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const claimsOf = (organizationId: string, owner: { hold_id?: string; booking_id?: string }) =>
  db
    .selectFrom('booking_capacity_claims')
    .select(['quantity', 'expires_at', 'released_at'])
    .where('organization_id', '=', organizationId)
    .$if(owner.hold_id !== undefined, (qb) => qb.where('hold_id', '=', owner.hold_id!))
    .$if(owner.booking_id !== undefined, (qb) => qb.where('booking_id', '=', owner.booking_id!))
    .orderBy('created_at')
    .execute();

const bookingEmails = async (organizationId: string) => {
  const rows = await db
    .selectFrom('outbox')
    .select(['metadata', 'payload'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const metadata = row.metadata as { templateType: string; event?: string; audience?: string };
    const payload = row.payload as { to: string; text: string };
    return { type: metadata.templateType, event: metadata.event, to: payload.to, text: payload.text };
  });
};

async function liveUnits(organizationId: string, resourceId: string, when: Date) {
  const [row] = await readLiveClaims(db, { organizationId, at: when }, [resourceId], {
    startsAt: new Date('2026-07-02T09:00:00Z'),
    endsAt: new Date('2026-07-02T10:15:00Z'),
  });
  return row!.quantities.reduce((sum, units) => sum + units, 0);
}

function webhook(
  type: 'payment_intent.succeeded' | 'payment_intent.payment_failed',
  intentId: string,
  amount: number,
) {
  return (when: Date) =>
    db.transaction().execute((trx) =>
      settlePaymentEvent(
        trx,
        {
          id: `evt_${intentId}_${type}_${when.getTime()}`,
          type,
          intentId,
          amountInCents: amount,
          currency: 'EUR',
          metadata: {},
          createdAt: when,
        },
        { at: when, email: EMAIL, settleBookingPayment },
      ),
    );
}

async function pay(token: string, provider: PaymentProvider, when: Date) {
  const handoff = await createPaymentSession(db, provider, { at: when, email: EMAIL }, { token });
  return handoff.clientSecret.split('_secret_')[0]!;
}

describe(`hold conversion (${testDatabaseKind})`, () => {
  it('CONFIRMED: nothing due now — booking, allocations, history, code, claim kept without expiry, NOT_REQUIRED sale, emails', async () => {
    const { organizationId, kayaks, serviceId } = await shop('convert-free', { amountInCents: 0 });
    const held = await hold(organizationId, serviceId);
    const { conversion, replayed } = await convert(organizationId, held, {
      body: { customerPhone: '+351 900 000 000', customerNote: 'Window seat' },
    });
    expect(replayed).toBe(false);
    expect(conversion).toEqual({
      flow: 'CONFIRMED',
      bookingId: expect.stringMatching(/^bkg_/),
      bookingStatus: 'CONFIRMED',
      checkoutToken: null,
      paymentExpiresAt: null,
      amountDueNowInCents: 0,
      remainingBalanceInCents: 0,
      totalInCents: 0,
      currency: 'EUR',
      terminalReason: null,
    });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      hold_id: held.id,
      service_id: serviceId,
      customer_name: 'Ada Lovelace',
      customer_email: held.email,
      customer_phone: '+351 900 000 000',
      customer_note: 'Window seat',
      timezone: 'Europe/Lisbon',
      quantity: 1,
      total_in_cents: 0,
      payment_expires_at: null,
    });
    expect(booking.code).toMatch(/^BK-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(booking.snapshot).toMatchObject({ name: 'Tour', slug: 'tour' });
    expect(booking.history).toEqual([
      { at: at(5).toISOString(), from: null, to: 'CONFIRMED', actor: 'GUEST' },
    ]);
    const allocations = await db
      .selectFrom('booking_allocations')
      .select(['resource_id', 'quantity', 'selection'])
      .where('booking_id', '=', booking.id)
      .execute();
    expect(allocations).toEqual([{ resource_id: kayaks, quantity: 1, selection: 'AUTO' }]);
    // The claim moved: the hold's released, the booking's live with no expiry.
    expect((await claimsOf(organizationId, { hold_id: held.id })).every((c) => c.released_at !== null)).toBe(
      true,
    );
    expect(await claimsOf(organizationId, { booking_id: booking.id })).toEqual([
      { quantity: 1, expires_at: null, released_at: null },
    ]);
    expect(await liveUnits(organizationId, kayaks, at(60 * 24))).toBe(1);
    const hold2 = await db
      .selectFrom('booking_holds')
      .select('status')
      .where('id', '=', held.id)
      .executeTakeFirst();
    expect(hold2?.status).toBe('CONVERTED');
    const sale = await db
      .selectFrom('sales_records')
      .selectAll()
      .where('id', '=', booking.sales_record_id!)
      .executeTakeFirstOrThrow();
    expect(sale).toMatchObject({ source: 'BOOKING', payment_status: 'NOT_REQUIRED', total_in_cents: 0 });
    const emails = await bookingEmails(organizationId);
    expect(emails.map(({ type, event, to }) => ({ type, event, to }))).toEqual([
      { type: 'BOOKING_NOTIFICATION', event: 'CONFIRMED', to: held.email },
      { type: 'BOOKING_NOTIFICATION', event: 'NEW_BOOKING', to: 'bookings@shop.example' },
    ]);
    expect(emails[0]!.text).toContain(booking.code);
    expect(emails[0]!.text).toMatch(/https:\/\/shop\.example\/bookings\/manage\/m1_/);
    const token = /manage\/(m1_[A-Za-z0-9_-]+)/.exec(emails[0]!.text)![1]!;
    const stored = await db
      .selectFrom('booking_management_tokens')
      .select(['booking_id', 'expires_at'])
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    expect(stored.booking_id).toBe(booking.id);
    // 30 days after the end.
    expect(new Date(stored.expires_at).toISOString()).toBe('2026-08-01T10:00:00.000Z');
  });

  it('REQUEST: manual approval — REQUESTED, claim released, no sale, request expiry capped at startsAt, emails', async () => {
    const { organizationId, kayaks, serviceId } = await shop('convert-request', {
      checkout: { paymentMode: 'PAY_NOW', approvalMode: 'MANUAL' },
    });
    const held = await hold(organizationId, serviceId);
    const { conversion } = await convert(organizationId, held);
    expect(conversion).toMatchObject({
      flow: 'REQUEST',
      bookingStatus: 'REQUESTED',
      checkoutToken: null,
      amountDueNowInCents: 2500,
      totalInCents: 2500,
    });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking).toMatchObject({ status: 'REQUESTED', sales_record_id: null, payment_expires_at: null });
    expect(new Date(booking.request_expires_at!).toISOString()).toBe('2026-07-02T09:00:00.000Z');
    expect(await claimsOf(organizationId, { booking_id: booking.id })).toEqual([]);
    expect(await liveUnits(organizationId, kayaks, at(6))).toBe(0);
    expect((await bookingEmails(organizationId)).map((email) => email.event)).toEqual([
      'REQUEST_RECEIVED',
      'NEW_REQUEST',
    ]);
    expect((await readBookingPayments(db, organizationId, [booking.id])).get(booking.id)).toBeNull();
  });

  it('REQUEST: pay later with a positive total; merchant emails skipped without an address', async () => {
    const { organizationId, serviceId } = await shop('convert-paylater', {
      checkout: { paymentMode: 'PAY_LATER' },
      bookingEmail: null,
    });
    const held = await hold(organizationId, serviceId);
    const { conversion } = await convert(organizationId, held);
    expect(conversion).toMatchObject({
      flow: 'REQUEST',
      amountDueNowInCents: 0,
      remainingBalanceInCents: 2500,
    });
    expect((await bookingEmails(organizationId)).map((email) => email.event)).toEqual(['REQUEST_RECEIVED']);
  });

  it('PAYMENT: claim until the payment window, AWAITING_PAYMENT sale with a SERVICE line, a checkout bound to the due amount', async () => {
    const { organizationId, kayaks, serviceId } = await shop('convert-payment', {
      checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 20 } },
    });
    const held = await hold(organizationId, serviceId);
    const { conversion } = await convert(organizationId, held);
    expect(conversion).toMatchObject({
      flow: 'PAYMENT',
      bookingStatus: 'PENDING_PAYMENT',
      paymentExpiresAt: at(35).toISOString(),
      amountDueNowInCents: 500,
      remainingBalanceInCents: 2000,
      totalInCents: 2500,
      terminalReason: null,
    });
    expect(isTokenOf('checkout', conversion.checkoutToken!)).toBe(true);
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(await claimsOf(organizationId, { booking_id: booking.id })).toEqual([
      { quantity: 1, expires_at: at(35), released_at: null },
    ]);
    expect(await liveUnits(organizationId, kayaks, at(34))).toBe(1);
    expect(await liveUnits(organizationId, kayaks, at(35))).toBe(0);
    const session = await findSessionByToken(db, conversion.checkoutToken!, { at: at(6) });
    expect(session).toMatchObject({
      status: 'BOUND',
      total_in_cents: 500,
      sales_record_id: booking.sales_record_id,
      expires_at: at(35),
    });
    const lines = await db
      .selectFrom('sales_record_lines')
      .select(['type', 'name', 'quantity', 'unit_price_in_cents'])
      .where('sales_record_id', '=', booking.sales_record_id!)
      .execute();
    expect(lines).toEqual([
      {
        type: 'SERVICE',
        name: 'Tour, July 2, 2026 at 10:00 AM to July 2, 2026 at 11:00 AM (Europe/Lisbon)',
        quantity: 1,
        unit_price_in_cents: 2500,
      },
    ]);
    const emails = await bookingEmails(organizationId);
    expect(emails.map((email) => email.event)).toEqual(['PAYMENT_REQUIRED']);
    expect(emails[0]!.text).toContain(`https://shop.example/checkout/pay?token=${conversion.checkoutToken}`);
    expect((await readBookingPayments(db, organizationId, [booking.id])).get(booking.id)).toEqual({
      salesRecordId: booking.sales_record_id,
      paymentStatus: 'AWAITING_PAYMENT',
      totalInCents: 2500,
      paidInCents: 0,
      balanceDueInCents: 2500,
      paymentExpiresAt: at(35).toISOString(),
      voidedAt: null,
      refundRequired: false,
    });
  });

  it('replays read the present: a new c1_ for the same checkout, never a second intent; CONFIRMED and REQUEST their flows', async () => {
    const { organizationId, serviceId } = await shop('convert-replay');
    const held = await hold(organizationId, serviceId);
    const first = await convert(organizationId, held);
    const { provider, intents } = fakeProvider();
    await pay(first.conversion.checkoutToken!, provider, at(6));
    const again = await convert(organizationId, held, { at: at(7) });
    expect(again.replayed).toBe(true);
    expect(again.conversion).toMatchObject({ flow: 'PAYMENT', bookingId: first.conversion.bookingId });
    expect(again.conversion.checkoutToken).not.toBe(first.conversion.checkoutToken);
    const [a, b] = await Promise.all(
      [first, again].map((outcome) =>
        findSessionByToken(db, outcome.conversion.checkoutToken!, { at: at(7) }),
      ),
    );
    expect(a!.id).toBe(b!.id);
    await pay(again.conversion.checkoutToken!, provider, at(8));
    expect(intents.size).toBe(1);
    const sessions = await db
      .selectFrom('checkout_sessions')
      .select('id')
      .where('organization_id', '=', organizationId)
      .execute();
    expect(sessions).toHaveLength(1);

    const free = await shop('convert-replay-free', { amountInCents: 0 });
    const freeHold = await hold(free.organizationId, free.serviceId);
    const confirmed = await convert(free.organizationId, freeHold);
    expect((await convert(free.organizationId, freeHold, { at: at(9) })).conversion).toEqual(
      confirmed.conversion,
    );

    const manual = await shop('convert-replay-manual', {
      checkout: { paymentMode: 'PAY_NOW', approvalMode: 'MANUAL' },
    });
    const manualHold = await hold(manual.organizationId, manual.serviceId);
    const requested = await convert(manual.organizationId, manualHold);
    expect((await convert(manual.organizationId, manualHold, { at: at(9) })).conversion).toEqual(
      requested.conversion,
    );
  });

  it.each([
    ['DECLINED', 'BOOKING_DECLINED'],
    ['CANCELLED', 'BOOKING_CANCELLED'],
    ['EXPIRED', 'BOOKING_EXPIRED'],
  ] as const)('a replay of a booking since %s is TERMINAL %s', async (status, reason) => {
    const { organizationId, serviceId } = await shop(`convert-replay-${status.toLowerCase()}`, {
      checkout: { paymentMode: 'PAY_NOW', approvalMode: 'MANUAL' },
    });
    const held = await hold(organizationId, serviceId);
    const { conversion } = await convert(organizationId, held);
    await db.updateTable('bookings').set({ status }).where('id', '=', conversion.bookingId!).execute();
    const replay = await convert(organizationId, held, { at: at(10) });
    expect(replay).toEqual({
      replayed: true,
      conversion: {
        ...conversion,
        flow: 'TERMINAL',
        bookingStatus: status,
        terminalReason: reason,
      },
    });
  });

  it('TERMINAL: an expired hold, a released hold, a service no longer ACTIVE — no booking', async () => {
    const { organizationId, kayaks, serviceId } = await shop('convert-terminal');
    const expired = await hold(organizationId, serviceId);
    expect((await convert(organizationId, expired, { at: at(30) })).conversion).toMatchObject({
      flow: 'TERMINAL',
      bookingId: null,
      terminalReason: 'HOLD_EXPIRED',
    });
    const released = await hold(organizationId, serviceId, { at: at(31) });
    await releaseHold(db, { organizationId, at: at(32) }, released.id, released.key);
    expect((await convert(organizationId, released, { at: at(33) })).conversion).toMatchObject({
      flow: 'TERMINAL',
      terminalReason: 'HOLD_RELEASED',
    });
    const drafted = await hold(organizationId, serviceId, { at: at(34) });
    await db.updateTable('booking_services').set({ status: 'DRAFT' }).where('id', '=', serviceId).execute();
    expect((await convert(organizationId, drafted, { at: at(35) })).conversion).toMatchObject({
      flow: 'TERMINAL',
      terminalReason: 'SERVICE_UNAVAILABLE',
    });
    expect(
      await db.selectFrom('bookings').select('id').where('organization_id', '=', organizationId).execute(),
    ).toEqual([]);
    // Every hold gave its claim back, the drafted one's too: its key converts nothing else.
    expect(await liveUnits(organizationId, kayaks, at(36))).toBe(0);
    expect(
      (await db.selectFrom('booking_holds').select('status').where('id', '=', drafted.id).executeTakeFirst())
        ?.status,
    ).toBe('EXPIRED');
  });

  it('TERMINAL CAPACITY_LOST: a conversion deciding under the lock after a newer hold took the lapsed units', async () => {
    const { organizationId, kayaks, serviceId } = await shop('convert-lost');
    const first = await hold(organizationId, serviceId);
    // At 08:31 the first hold's claim has lapsed: a second hold takes the only kayak.
    await hold(organizationId, serviceId, { at: at(31) });
    // A conversion whose clock read 08:29 (before the expiry) reaches the lock afterwards.
    const { conversion } = await convert(organizationId, first, { at: at(29) });
    expect(conversion).toMatchObject({ flow: 'TERMINAL', bookingId: null, terminalReason: 'CAPACITY_LOST' });
    expect(await liveUnits(organizationId, kayaks, at(32))).toBe(1);
  });

  it('possession: another key or tenant is the neutral 404; the email must be the hold’s; delivery is not a conversion field', async () => {
    const { organizationId, serviceId } = await shop('convert-possession');
    const other = await shop('convert-possession-other');
    const held = await hold(organizationId, serviceId, { email: 'Ada@Example.com' });
    expect(
      await refusal(() => convert(organizationId, held, { key: 'another-key-0123456789' })),
    ).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect(await refusal(() => convert(other.organizationId, held))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect(await refusal(() => convert(organizationId, { ...held, id: 'hld_unknown' }))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect(
      await refusal(() => convert(organizationId, held, { body: { customerEmail: 'someone@example.com' } })),
    ).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: 'customerEmail' }] } });
    expect(
      convertHoldInputSchema.safeParse({ customerName: 'A', customerEmail: 'a@example.com', delivery: {} })
        .success,
    ).toBe(false);
    // Case-insensitive email: converts.
    const { conversion } = await convert(organizationId, held, {
      body: { customerEmail: 'ada@example.COM' },
    });
    expect(conversion.flow).toBe('PAYMENT');
  });

  it('agreement: its current version must be accepted (409 AGREEMENT_REQUIRED with details), then it is recorded', async () => {
    const { organizationId, serviceId } = await shop('convert-agreement', {
      agreement: { title: 'Waiver', bodyText: 'I accept the risks.' },
      amountInCents: 0,
    });
    const held = await hold(organizationId, serviceId);
    expect(await refusal(() => convert(organizationId, held))).toEqual({
      code: 'AGREEMENT_REQUIRED',
      details: { serviceId, version: 1 },
    });
    expect(
      await refusal(() =>
        convert(organizationId, held, {
          body: { agreement: { version: 2, signerName: 'Ada', accepted: true } },
        }),
      ),
    ).toMatchObject({ code: 'AGREEMENT_REQUIRED' });
    const hold2 = await db
      .selectFrom('booking_holds')
      .select('status')
      .where('id', '=', held.id)
      .executeTakeFirst();
    expect(hold2?.status).toBe('ACTIVE');
    const { conversion } = await convert(organizationId, held, {
      body: { agreement: { version: 1, signerName: 'Ada', accepted: true } },
    });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking.agreements).toEqual([
      { title: 'Waiver', version: 1, signerName: 'Ada', acceptedAt: at(5).toISOString() },
    ]);
  });

  it('a malformed delivery snapshot is 409 STALE_STATE DELIVERY_SNAPSHOT_INVALID, changing nothing; a valid one adds a FEE line', async () => {
    const { organizationId, kayaks, serviceId } = await shop('convert-delivery');
    const held = await hold(organizationId, serviceId);
    await db
      .updateTable('booking_holds')
      .set({
        snapshot: (eb) =>
          eb.fn('jsonb_set', [
            eb.ref('snapshot'),
            eb.val('{delivery}'),
            eb.val('{"method":"DELIVERY"}'),
          ]) as never,
      })
      .where('id', '=', held.id)
      .execute();
    expect(await refusal(() => convert(organizationId, held))).toEqual({
      code: 'STALE_STATE',
      details: { reason: 'DELIVERY_SNAPSHOT_INVALID' },
    });
    expect(
      (await db.selectFrom('booking_holds').select('status').where('id', '=', held.id).executeTakeFirst())
        ?.status,
    ).toBe('ACTIVE');
    expect(await liveUnits(organizationId, kayaks, at(6))).toBe(1);
    const delivery = {
      method: 'DELIVERY',
      address: {
        line1: '1 Rua Augusta',
        line2: null,
        city: 'Lisboa',
        state: null,
        postalCode: '1100-048',
        country: 'PT',
      },
      addressSummary: 'Lisboa, 1100-048, PT',
      distanceMeters: 1100,
      band: { label: 'City', maxDistanceMeters: 5000 },
      area: 'City',
      feeInCents: 700,
      evaluatedAt: NOW.toISOString(),
    };
    await db
      .updateTable('booking_holds')
      .set({
        snapshot: (eb) =>
          eb.fn('jsonb_set', [
            eb.ref('snapshot'),
            eb.val('{delivery}'),
            eb.val(JSON.stringify(delivery)),
          ]) as never,
      })
      .where('id', '=', held.id)
      .execute();
    const { conversion } = await convert(organizationId, held);
    expect(conversion).toMatchObject({ flow: 'PAYMENT', totalInCents: 3200, amountDueNowInCents: 3200 });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking).toMatchObject({ delivery_fee_in_cents: 700, delivery });
    const lines = await db
      .selectFrom('sales_record_lines')
      .select(['type', 'name', 'unit_price_in_cents'])
      .where('sales_record_id', '=', booking.sales_record_id!)
      .orderBy('position')
      .execute();
    expect(lines.map((line) => [line.type, line.unit_price_in_cents])).toEqual([
      ['SERVICE', 2500],
      ['FEE', 700],
    ]);
    expect(lines[1]!.name).toBe('Delivery (City)');
  });

  it('adds the tax quoted before the transaction; prices that include tax record it without adding it', async () => {
    const { organizationId, serviceId } = await shop('convert-tax', {
      capacity: 2,
      checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 50 } },
    });
    const added = await convert(organizationId, await hold(organizationId, serviceId), {
      tax: { provider: tenPercent, pricesIncludeTax: false },
    });
    expect(added.conversion).toMatchObject({ totalInCents: 2750, amountDueNowInCents: 1375 });
    const booking = await bookingRow(organizationId, added.conversion.bookingId!);
    expect(booking).toMatchObject({ subtotal_in_cents: 2500, tax_in_cents: 250, total_in_cents: 2750 });
    const sale = await db
      .selectFrom('sales_records')
      .select(['subtotal_in_cents', 'tax_in_cents', 'tax_included', 'total_in_cents'])
      .where('id', '=', booking.sales_record_id!)
      .executeTakeFirstOrThrow();
    expect(sale).toEqual({
      subtotal_in_cents: 2500,
      tax_in_cents: 250,
      tax_included: false,
      total_in_cents: 2750,
    });

    const included = await convert(organizationId, await hold(organizationId, serviceId, { at: at(1) }), {
      tax: { provider: tenPercent, pricesIncludeTax: true },
    });
    expect(included.conversion).toMatchObject({ totalInCents: 2500, amountDueNowInCents: 1250 });
    const within = await bookingRow(organizationId, included.conversion.bookingId!);
    expect(within).toMatchObject({ tax_in_cents: 227, total_in_cents: 2500 });
    const withinSale = await db
      .selectFrom('sales_records')
      .select(['tax_included', 'total_in_cents'])
      .where('id', '=', within.sales_record_id!)
      .executeTakeFirstOrThrow();
    expect(withinSale).toEqual({ tax_included: true, total_in_cents: 2500 });
  });

  it('links the booking to a customer of the tenant, never to another tenant’s', async () => {
    const { organizationId, serviceId } = await shop('convert-customer', { amountInCents: 0, capacity: 2 });
    const other = await shop('convert-customer-other');
    for (const [org, id] of [
      [organizationId, 'cus_convert_mine'],
      [other.organizationId, 'cus_convert_theirs'],
    ] as const) {
      await db
        .insertInto('customers')
        .values({
          organization_id: org,
          id,
          email: `${id}@example.com`,
          email_verified_at: null,
          pending_email: null,
          name: null,
          phone: null,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
    }
    const mine = await convert(organizationId, await hold(organizationId, serviceId), {
      customerId: 'cus_convert_mine',
    });
    const booking = await bookingRow(organizationId, mine.conversion.bookingId!);
    expect(booking.customer_id).toBe('cus_convert_mine');
    expect(booking.history[0]).toMatchObject({ actor: 'CUSTOMER' });
    const theirs = await convert(organizationId, await hold(organizationId, serviceId, { at: at(1) }), {
      customerId: 'cus_convert_theirs',
    });
    expect((await bookingRow(organizationId, theirs.conversion.bookingId!)).customer_id).toBeNull();
  });
});

describe(`booking payments through the webhook (${testDatabaseKind})`, () => {
  it('success: attempt, sale and booking move together — CONFIRMED, claim permanent, receipt and emails', async () => {
    const { organizationId, kayaks, serviceId } = await shop('pay-success');
    const held = await hold(organizationId, serviceId);
    const { conversion } = await convert(organizationId, held);
    const { provider } = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, provider, at(6));
    const settled = await webhook('payment_intent.succeeded', intentId, 2500)(at(7));
    expect(settled).toMatchObject({ outcome: 'booking', result: 'PAID' });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking.status).toBe('CONFIRMED');
    expect(booking.history.map((entry) => [entry.from, entry.to, entry.actor])).toEqual([
      [null, 'PENDING_PAYMENT', 'GUEST'],
      ['PENDING_PAYMENT', 'CONFIRMED', 'WEBHOOK'],
    ]);
    const live = (await claimsOf(organizationId, { booking_id: booking.id })).filter(
      (c) => c.released_at === null,
    );
    expect(live).toEqual([{ quantity: 1, expires_at: null, released_at: null }]);
    expect(await liveUnits(organizationId, kayaks, at(60))).toBe(1);
    const payment = (await readBookingPayments(db, organizationId, [booking.id])).get(booking.id);
    expect(payment).toMatchObject({ paymentStatus: 'PAID', paidInCents: 2500, balanceDueInCents: 0 });
    const session = await db
      .selectFrom('checkout_sessions')
      .select('status')
      .where('sales_record_id', '=', booking.sales_record_id)
      .executeTakeFirstOrThrow();
    expect(session.status).toBe('COMPLETED');
    expect((await bookingEmails(organizationId)).map((email) => email.event ?? email.type)).toEqual([
      'PAYMENT_REQUIRED',
      'PAYMENT_RECEIVED',
      'CONFIRMED',
      'NEW_BOOKING',
    ]);
    // A replay changes nothing.
    expect(await webhook('payment_intent.succeeded', intentId, 2500)(at(8))).toMatchObject({
      result: 'UNCHANGED',
    });
    // The booking's checkout cannot be repriced or bound: its amount is the booking's.
  });

  it('payment_failed: FAILED on the sale, booking unchanged; a new payment session re-arms the same intent', async () => {
    const { organizationId, serviceId } = await shop('pay-failed');
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const { provider, intents } = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, provider, at(6));
    expect(await webhook('payment_intent.payment_failed', intentId, 2500)(at(7))).toMatchObject({
      result: 'FAILED',
    });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking.status).toBe('PENDING_PAYMENT');
    expect((await readBookingPayments(db, organizationId, [booking.id])).get(booking.id)).toMatchObject({
      paymentStatus: 'FAILED',
    });
    expect(await pay(conversion.checkoutToken!, provider, at(8))).toBe(intentId);
    expect(intents.size).toBe(1);
    expect((await readBookingPayments(db, organizationId, [booking.id])).get(booking.id)).toMatchObject({
      paymentStatus: 'AWAITING_PAYMENT',
    });
    expect(await webhook('payment_intent.succeeded', intentId, 2500)(at(9))).toMatchObject({
      result: 'PAID',
    });
    expect((await bookingRow(organizationId, booking.id)).status).toBe('CONFIRMED');
  });

  /** Expires a PENDING_PAYMENT booking as the payment-window sweep does. */
  async function expire(organizationId: string, bookingId: string, when: Date) {
    await db.transaction().execute(async (trx) => {
      await closeBookingPayment(trx, { organizationId, at: when }, bookingId);
      await trx.updateTable('bookings').set({ status: 'EXPIRED' }).where('id', '=', bookingId).execute();
      await trx
        .updateTable('booking_capacity_claims')
        .set({ released_at: when })
        .where('booking_id', '=', bookingId)
        .where('released_at', 'is', null)
        .execute();
    });
  }

  it('late success after EXPIRED, units still free: CONFIRMED with a new claim; the owed cancellation is dropped', async () => {
    const { organizationId, kayaks, serviceId } = await shop('pay-late-free');
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const { provider, cancels } = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, provider, at(6));
    await expire(organizationId, conversion.bookingId!, at(36));
    expect((await bookingRow(organizationId, conversion.bookingId!)).voided_at).not.toBeNull();
    expect(await webhook('payment_intent.succeeded', intentId, 2500)(at(40))).toMatchObject({
      result: 'PAID',
    });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking).toMatchObject({ status: 'CONFIRMED', voided_at: null, refund_required: false });
    expect(await liveUnits(organizationId, kayaks, at(60))).toBe(1);
    await runPaymentActions(db, { payments: provider, at: at(41) });
    expect(cancels).toEqual([]);
  });

  it('late success after EXPIRED, units taken: refunded in full automatically, EXPIRED kept, merchant emailed', async () => {
    const { organizationId, kayaks, serviceId } = await shop('pay-late-taken');
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const { provider, refunds } = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, provider, at(6));
    await expire(organizationId, conversion.bookingId!, at(36));
    await hold(organizationId, serviceId, { at: at(37) });
    expect(await webhook('payment_intent.succeeded', intentId, 2500)(at(40))).toMatchObject({
      result: 'REFUNDED',
      paymentActions: [{ organizationId }],
    });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking).toMatchObject({ status: 'EXPIRED', refund_required: false });
    expect((await readBookingPayments(db, organizationId, [booking.id])).get(booking.id)).toMatchObject({
      paymentStatus: 'REFUNDED',
      paidInCents: 0,
      refundRequired: false,
    });
    expect(await liveUnits(organizationId, kayaks, at(41))).toBe(1);
    const emails = await bookingEmails(organizationId);
    expect(emails.at(-1)).toMatchObject({ event: 'LATE_PAYMENT_REFUNDED', to: 'bookings@shop.example' });
    expect(emails.map((email) => email.type)).not.toContain('COMMERCE_PAYMENT_RECEIVED');
    await runPaymentActions(db, { payments: provider, at: at(41) });
    expect(refunds).toEqual([intentId]);
    const audit = await db
      .selectFrom('audit_logs')
      .select(['action', 'target_id', 'metadata'])
      .where('organization_id', '=', organizationId)
      .where('action', 'like', 'booking.payment_refund%')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual([
      'booking.payment_refunded',
      'booking.payment_refund_issued',
    ]);
    expect(audit[0]).toMatchObject({ target_id: booking.id, metadata: { reason: 'LATE_PAYMENT' } });
  });

  it('late success after startsAt (units still free): EXPIRED kept, refunded in full, merchant emailed', async () => {
    const { organizationId, serviceId } = await shop('pay-late-started');
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const { provider, refunds } = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, provider, at(6));
    await expire(organizationId, conversion.bookingId!, at(36));
    const started = new Date('2026-07-02T09:30:00Z');
    expect(await webhook('payment_intent.succeeded', intentId, 2500)(started)).toMatchObject({
      result: 'REFUNDED',
    });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking.status).toBe('EXPIRED');
    expect(
      (await claimsOf(organizationId, { booking_id: booking.id })).every((c) => c.released_at !== null),
    ).toBe(true);
    expect((await bookingEmails(organizationId)).at(-1)).toMatchObject({ event: 'LATE_PAYMENT_REFUNDED' });
    await runPaymentActions(db, { payments: provider, at: started });
    expect(refunds).toEqual([intentId]);
    expect((await readBookingPayments(db, organizationId, [booking.id])).get(booking.id)).toMatchObject({
      paidInCents: 0,
      refundRequired: false,
    });
  });

  /** A processor that refuses every cancellation because the intent succeeded. */
  const refusingCancel = (fake: ReturnType<typeof fakeProvider>): PaymentProvider => ({
    ...fake.provider,
    async cancelPaymentIntent(intentId) {
      fake.cancels.push(intentId);
      return { outcome: 'not_cancelable', intentStatus: 'succeeded' };
    },
  });

  it('worker first: the refused cancellation of an expired booking’s succeeded intent leaves the late-payment rule to the webhook — CONFIRMED, nothing refunded', async () => {
    const { organizationId, kayaks, serviceId } = await shop('pay-late-worker-first');
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const fake = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, fake.provider, at(6));
    await expire(organizationId, conversion.bookingId!, at(36));
    // The worker's sweep runs the owed cancellation before the webhook arrives.
    await runPaymentActions(db, { payments: refusingCancel(fake), at: at(37) });
    expect(fake.cancels).toEqual([intentId]);
    expect(fake.refunds).toEqual([]);
    expect(
      await db
        .selectFrom('payment_attempts')
        .select(['status', 'provider_action', 'intent_id'])
        .where('intent_id', '=', intentId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'CANCELLED', provider_action: null, intent_id: intentId });
    expect(await webhook('payment_intent.succeeded', intentId, 2500)(at(40))).toMatchObject({
      result: 'PAID',
    });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking).toMatchObject({ status: 'CONFIRMED', refund_required: false });
    expect(await liveUnits(organizationId, kayaks, at(60))).toBe(1);
    expect((await readBookingPayments(db, organizationId, [booking.id])).get(booking.id)).toMatchObject({
      paymentStatus: 'PAID',
      paidInCents: 2500,
    });
    await runPaymentActions(db, { payments: refusingCancel(fake), at: at(41) });
    expect(fake.refunds).toEqual([]);
    expect(fake.cancels).toEqual([intentId]);
  });

  it('worker first after startsAt: the webhook keeps the booking EXPIRED, refunds once and emails the merchant', async () => {
    const { organizationId, serviceId } = await shop('pay-late-worker-first-started');
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const fake = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, fake.provider, at(6));
    await expire(organizationId, conversion.bookingId!, at(36));
    const started = new Date('2026-07-02T09:30:00Z');
    await runPaymentActions(db, { payments: refusingCancel(fake), at: started });
    expect(await webhook('payment_intent.succeeded', intentId, 2500)(started)).toMatchObject({
      result: 'REFUNDED',
    });
    await runPaymentActions(db, { payments: fake.provider, at: started });
    await runPaymentActions(db, { payments: fake.provider, at: new Date(started.getTime() + 3_600_000) });
    expect(fake.refunds).toEqual([intentId]);
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking.status).toBe('EXPIRED');
    expect((await bookingEmails(organizationId)).at(-1)).toMatchObject({
      event: 'LATE_PAYMENT_REFUNDED',
      to: 'bookings@shop.example',
    });
    expect((await readBookingPayments(db, organizationId, [booking.id])).get(booking.id)).toMatchObject({
      paymentStatus: 'REFUNDED',
      paidInCents: 0,
      refundRequired: false,
    });
  });

  it('worker first for a cancelled unpaid booking: refunded once and its Sales record REFUNDED, as the webhook leaves it', async () => {
    const { organizationId, serviceId } = await shop('pay-cancelled-worker-first');
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const fake = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, fake.provider, at(6));
    await db.transaction().execute((trx) =>
      cancelBooking(trx, { organizationId, at: at(8), email: EMAIL }, conversion.bookingId!, {
        actor: 'MERCHANT',
        userId: 'usr_owner',
      }),
    );
    await runPaymentActions(db, { payments: refusingCancel(fake), at: at(9) });
    expect(fake.refunds).toEqual([intentId]);
    expect(
      (await readBookingPayments(db, organizationId, [conversion.bookingId!])).get(conversion.bookingId!),
    ).toMatchObject({ paymentStatus: 'REFUNDED', paidInCents: 0, refundRequired: false });
    expect(await webhook('payment_intent.succeeded', intentId, 2500)(at(10))).toMatchObject({
      result: 'UNCHANGED',
    });
    expect(fake.refunds).toEqual([intentId]);
  });

  it('a late payment’s refund that keeps failing reads refundRequired until a later try succeeds', async () => {
    const { organizationId, serviceId } = await shop('pay-late-refund-fails');
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const { provider, refunds } = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, provider, at(6));
    await expire(organizationId, conversion.bookingId!, at(36));
    const started = new Date('2026-07-02T09:30:00Z');
    await webhook('payment_intent.succeeded', intentId, 2500)(started);
    const failing: PaymentProvider = {
      ...provider,
      async refundPayment() {
        throw Object.assign(new Error('processor down'), { code: 'PROVIDER_UNAVAILABLE' });
      },
    };
    const read = async () =>
      (await readBookingPayments(db, organizationId, [conversion.bookingId!])).get(conversion.bookingId!)!
        .refundRequired;
    let when = started.getTime();
    for (let tryNumber = 1; tryNumber <= 5; tryNumber += 1) {
      expect(await read()).toBe(false);
      await runPaymentActions(db, { payments: failing, at: new Date(when) });
      when += 3_600_000;
    }
    expect(await read()).toBe(true);
    await runPaymentActions(db, { payments: provider, at: new Date(when) });
    expect(refunds).toEqual([intentId]);
    expect(await read()).toBe(false);
  });

  it('cancelling a CONFIRMED booking closes its open balance link: a cancelled booking takes no more money', async () => {
    const { organizationId, serviceId } = await shop('pay-link-cancel', {
      checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 20 } },
    });
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const { provider } = fakeProvider();
    await webhook(
      'payment_intent.succeeded',
      await pay(conversion.checkoutToken!, provider, at(6)),
      500,
    )(at(7));
    const ctx = { organizationId, at: at(20), email: EMAIL };
    await sendBookingPaymentLink(
      db,
      { ...ctx, actor: { userId: 'usr_owner', email: 'owner@shop.example' }, staffUserId: null },
      conversion.bookingId!,
    );
    await db.transaction().execute((trx) =>
      cancelBooking(trx, { ...ctx, at: at(21) }, conversion.bookingId!, {
        actor: 'MERCHANT',
        userId: 'usr_owner',
      }),
    );
    const sessions = await db
      .selectFrom('checkout_sessions')
      .select(['status', 'total_in_cents'])
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(sessions).toEqual([
      { status: 'COMPLETED', total_in_cents: 500 },
      { status: 'CANCELLED', total_in_cents: 2000 },
    ]);
    expect(
      (await readBookingPayments(db, organizationId, [conversion.bookingId!])).get(conversion.bookingId!),
    ).toMatchObject({ paymentStatus: 'PAID', paidInCents: 500 });
  });

  it('payment link: the open balance of a CONFIRMED booking, one open link, 409 otherwise, Staff only when assigned', async () => {
    const { organizationId, serviceId } = await shop('pay-link', {
      checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 20 } },
    });
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const linkCtx = (staffUserId: string | null = null) => ({
      organizationId,
      at: at(20),
      email: EMAIL,
      actor: { userId: 'usr_owner', email: 'owner@shop.example' },
      staffUserId,
    });
    expect(await refusal(() => sendBookingPaymentLink(db, linkCtx(), conversion.bookingId!))).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
    });
    const { provider } = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, provider, at(6));
    await webhook('payment_intent.succeeded', intentId, 500)(at(7));
    expect(
      await refusal(() => sendBookingPaymentLink(db, linkCtx('usr_staff'), conversion.bookingId!)),
    ).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    const first = await sendBookingPaymentLink(db, linkCtx(), conversion.bookingId!);
    expect(first).toEqual({
      amountInCents: 2000,
      expiresAt: new Date(at(20).getTime() + 7 * 86_400_000).toISOString(),
    });
    await db
      .updateTable('bookings')
      .set({ assignee_user_ids: ['usr_staff'] })
      .where('id', '=', conversion.bookingId!)
      .execute();
    const second = await sendBookingPaymentLink(db, linkCtx('usr_staff'), conversion.bookingId!);
    expect(second.amountInCents).toBe(2000);
    const sessions = await db
      .selectFrom('checkout_sessions')
      .select(['status', 'total_in_cents'])
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(sessions).toEqual([
      { status: 'COMPLETED', total_in_cents: 500 },
      { status: 'CANCELLED', total_in_cents: 2000 },
      { status: 'BOUND', total_in_cents: 2000 },
    ]);
    const audit = await db
      .selectFrom('audit_logs')
      .select(['action', 'target_id'])
      .where('organization_id', '=', organizationId)
      .execute();
    expect(audit.filter((row) => row.action === 'booking.payment_link_sent')).toHaveLength(2);
    const emails = await bookingEmails(organizationId);
    const token = /checkout\/pay\?token=(c1_[A-Za-z0-9_-]+)/.exec(emails.at(-1)!.text)![1]!;
    const balanceIntent = await pay(token, provider, at(21));
    await webhook('payment_intent.succeeded', balanceIntent, 2000)(at(22));
    expect(
      (await readBookingPayments(db, organizationId, [conversion.bookingId!])).get(conversion.bookingId!),
    ).toMatchObject({
      paymentStatus: 'PAID',
      paidInCents: 2500,
      balanceDueInCents: 0,
    });
    expect(await refusal(() => sendBookingPaymentLink(db, linkCtx(), conversion.bookingId!))).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
    });
  });
});

describe(`a booking keeps at most its total (${testDatabaseKind})`, () => {
  /** A DEPOSIT booking (2,500: 500 now) CONFIRMED by its deposit, and a way to send balance links. */
  async function confirmedDeposit(label: string) {
    const { organizationId, serviceId } = await shop(label, {
      checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 20 } },
    });
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const fake = fakeProvider();
    const depositIntent = await pay(conversion.checkoutToken!, fake.provider, at(6));
    await webhook('payment_intent.succeeded', depositIntent, 500)(at(7));
    const bookingId = conversion.bookingId!;
    const sendLink = async (when: Date) => {
      await sendBookingPaymentLink(
        db,
        {
          organizationId,
          at: when,
          email: EMAIL,
          actor: { userId: 'usr_owner', email: 'owner@shop.example' },
          staffUserId: null,
        },
        bookingId,
      );
      const emails = await bookingEmails(organizationId);
      return /checkout\/pay\?token=(c1_[A-Za-z0-9_-]+)/.exec(emails.at(-1)!.text)![1]!;
    };
    const payment = async () => (await readBookingPayments(db, organizationId, [bookingId])).get(bookingId)!;
    return { organizationId, bookingId, ...fake, depositIntent, sendLink, payment };
  }

  it('a resent link: the closed link’s success is refunded in full, the new link’s kept — exactly the total', async () => {
    const t = await confirmedDeposit('keep-resent');
    const link1 = await t.sendLink(at(20));
    const intent1 = await pay(link1, t.provider, at(21));
    const link2 = await t.sendLink(at(22));
    const intent2 = await pay(link2, t.provider, at(23));
    // The processor took link 1's payment before the cancellation reached it.
    expect(await webhook('payment_intent.succeeded', intent1, 2000)(at(24))).toMatchObject({
      result: 'REFUNDED',
      paymentActions: [{ organizationId: t.organizationId }],
    });
    expect(await t.payment()).toMatchObject({ paidInCents: 500, balanceDueInCents: 2000 });
    expect(await webhook('payment_intent.succeeded', intent2, 2000)(at(25))).toMatchObject({
      result: 'PAID',
    });
    expect(await t.payment()).toMatchObject({
      paymentStatus: 'PAID',
      totalInCents: 2500,
      paidInCents: 2500,
      balanceDueInCents: 0,
      refundRequired: false,
    });
    await runPaymentActions(db, { payments: t.provider, at: at(26) });
    expect(t.refunds).toEqual([intent1]);
    // Replays change nothing.
    expect(await webhook('payment_intent.succeeded', intent1, 2000)(at(27))).toMatchObject({
      result: 'UNCHANGED',
    });
    const audit = await db
      .selectFrom('audit_logs')
      .select(['action', 'target_id', 'metadata'])
      .where('organization_id', '=', t.organizationId)
      .where('action', '=', 'booking.payment_refunded')
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({
        target_id: t.bookingId,
        metadata: expect.objectContaining({
          reason: 'PAYMENT_CLOSED',
          amountInCents: 2000,
          keptInCents: 500,
        }),
      }),
    ]);
    // The invariant checker agrees, and would name the booking had both payments been kept (today's bug).
    expect(await checkBookingPayments(db, { organizationId: t.organizationId })).toEqual({
      bookingsChecked: 1,
      overpaid: [],
      refundsOwed: 0,
      ok: true,
    });
    await db
      .updateTable('payment_attempts')
      .set({ status: 'SUCCEEDED' })
      .where('intent_id', '=', intent1)
      .execute();
    expect(await checkBookingPayments(db, { organizationId: t.organizationId })).toMatchObject({
      ok: false,
      overpaid: [{ bookingId: t.bookingId, totalInCents: 2500, keptInCents: 4500 }],
    });
  });

  it('a success beyond the open balance is refunded; a link left open on a paid balance starts no payment (409)', async () => {
    const t = await confirmedDeposit('keep-settled');
    const link1 = await t.sendLink(at(20));
    const intent1 = await pay(link1, t.provider, at(21));
    const link2 = await t.sendLink(at(22));
    const intent2 = await pay(link2, t.provider, at(23));
    expect(await webhook('payment_intent.succeeded', intent2, 2000)(at(24))).toMatchObject({
      result: 'PAID',
    });
    // Link 1's failed attempt, as a settlement that could not lock its session at once leaves it open.
    const [session1] = await db
      .selectFrom('checkout_sessions')
      .select('id')
      .where('organization_id', '=', t.organizationId)
      .where('total_in_cents', '=', 2000)
      .orderBy('id')
      .execute();
    await db
      .updateTable('checkout_sessions')
      .set({ status: 'PAYMENT_FAILED' })
      .where('id', '=', session1!.id)
      .execute();
    await db
      .updateTable('payment_attempts')
      .set({ status: 'FAILED', provider_action: null, provider_action_due_at: null })
      .where('checkout_session_id', '=', session1!.id)
      .execute();
    expect(await refusal(() => pay(link1, t.provider, at(25)))).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
    });
    // Its intent, confirmed anyway from the browser holding its secret: more than the open balance.
    expect(await webhook('payment_intent.succeeded', intent1, 2000)(at(26))).toMatchObject({
      result: 'REFUNDED',
    });
    expect(await t.payment()).toMatchObject({ paidInCents: 2500, balanceDueInCents: 0 });
    await runPaymentActions(db, { payments: t.provider, at: at(27) });
    expect(t.refunds).toEqual([intent1]);
  });

  it('a processor refusing to cancel a closed link’s intent because it succeeded: refunded, as for orders', async () => {
    const t = await confirmedDeposit('keep-cancel-refused');
    const link1 = await t.sendLink(at(20));
    const intent1 = await pay(link1, t.provider, at(21));
    await t.sendLink(at(22));
    const succeeded: PaymentProvider = {
      ...t.provider,
      async cancelPaymentIntent(intentId) {
        t.cancels.push(intentId);
        return { outcome: 'not_cancelable', intentStatus: 'succeeded' };
      },
    };
    await runPaymentActions(db, { payments: succeeded, at: at(23) });
    expect(t.cancels).toEqual([intent1]);
    expect(t.refunds).toEqual([intent1]);
    const attempt = await db
      .selectFrom('payment_attempts')
      .select(['status', 'provider_action', 'refund_id'])
      .where('intent_id', '=', intent1)
      .executeTakeFirstOrThrow();
    expect(attempt).toEqual({ status: 'REFUNDED', provider_action: null, refund_id: `re_${intent1}` });
    expect(await webhook('payment_intent.succeeded', intent1, 2000)(at(24))).toMatchObject({
      result: 'UNCHANGED',
    });
    expect(await t.payment()).toMatchObject({ paidInCents: 500, balanceDueInCents: 2000 });
  });

  it('a success for a cancelled booking is refunded: it takes no more money', async () => {
    const t = await confirmedDeposit('keep-cancelled');
    const link1 = await t.sendLink(at(20));
    const intent1 = await pay(link1, t.provider, at(21));
    await db.transaction().execute((trx) =>
      cancelBooking(trx, { organizationId: t.organizationId, at: at(22), email: EMAIL }, t.bookingId, {
        actor: 'MERCHANT',
        userId: 'usr_owner',
      }),
    );
    expect(await webhook('payment_intent.succeeded', intent1, 2000)(at(23))).toMatchObject({
      result: 'REFUNDED',
    });
    expect(await t.payment()).toMatchObject({ paidInCents: 500 });
    await runPaymentActions(db, { payments: t.provider, at: at(24) });
    expect(t.refunds).toEqual([intent1]);
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'approving a cancel request racing its balance link’s success: never a deadlock (20 rounds, real connections)',
    async () => {
      for (let round = 0; round < 20; round += 1) {
        const t = await confirmedDeposit(`race-approve-${round}`);
        const intent = await pay(await t.sendLink(at(20)), t.provider, at(21));
        const ctx = { organizationId: t.organizationId, at: at(22), email: EMAIL };
        const requestId = await db.transaction().execute(async (trx) => {
          const booking = await trx
            .selectFrom('bookings')
            .selectAll()
            .where('id', '=', t.bookingId)
            .forUpdate()
            .executeTakeFirstOrThrow();
          return createChangeRequest(trx, ctx, booking, { kind: 'CANCEL', actor: 'CUSTOMER' });
        });
        // Neither transaction is retried here: a deadlock would reject one of them with 40P01.
        const [approved, paid] = await Promise.allSettled([
          db
            .transaction()
            .setIsolationLevel('read committed')
            .execute((trx) =>
              approveChangeRequest(trx, { ...ctx, at: at(23) }, t.bookingId, requestId, {
                actor: 'MERCHANT',
                userId: 'usr_owner',
              }),
            ),
          webhook('payment_intent.succeeded', intent, 2000)(at(23)),
        ]);
        expect([approved.status, paid.status]).toEqual(['fulfilled', 'fulfilled']);
        expect((await bookingRow(t.organizationId, t.bookingId)).status).toBe('CANCELLED');
        // Paid before the cancel (kept: a cancelled booking is not refunded automatically) or after (refunded).
        expect((await t.payment()).paidInCents).toBeLessThanOrEqual(2500);
        expect((await checkBookingPayments(db, { organizationId: t.organizationId })).ok).toBe(true);
      }
    },
    120_000,
  );

  it('a failed balance link past its expiry: closed by the bookings sweep, its intent cancelled; the booking stays CONFIRMED', async () => {
    const t = await confirmedDeposit('link-expiry');
    const link = await t.sendLink(at(20));
    const intent = await pay(link, t.provider, at(21));
    await webhook('payment_intent.payment_failed', intent, 2000)(at(22));
    const past = new Date(at(20).getTime() + 7 * 86_400_000 + 60_000);
    await expireCheckoutSessions(db, { at: past, email: EMAIL });
    expect(await expireBookingPaymentLinks(db, { at: past, email: EMAIL })).toBeGreaterThanOrEqual(1);
    await runPaymentActions(db, { payments: t.provider, at: past });
    expect(t.cancels).toContain(intent);
    const session = await db
      .selectFrom('checkout_sessions')
      .select('status')
      .where('organization_id', '=', t.organizationId)
      .where('total_in_cents', '=', 2000)
      .executeTakeFirstOrThrow();
    expect(session.status).toBe('CANCELLED');
    expect(await t.payment()).toMatchObject({ paidInCents: 500, balanceDueInCents: 2000 });
    expect((await bookingRow(t.organizationId, t.bookingId)).status).toBe('CONFIRMED');
    // A new link may be sent for the balance.
    await t.sendLink(new Date(past.getTime() + 60_000));
  });

  it('the link-expiry job finds due links through its partial index, never by scanning every checkout session', async () => {
    const compiled = dueBookingPaymentLinks(db, { at: NOW, email: EMAIL }).compile();
    const plan = await db.transaction().execute(async (trx) => {
      // Whether the planner can use the index at all (with a handful of rows a scan is cheaper).
      await sql`set local enable_seqscan = off`.execute(trx);
      const explained = await trx.executeQuery(
        CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
      );
      return explained.rows.map((row) => String(Object.values(row as object)[0])).join('\n');
    });
    expect(plan).toContain('checkout_sessions_booking_expiry_idx');
  });

  it('a failed payment then the window’s expiry: the failed attempt’s intent is cancelled at the processor', async () => {
    const { organizationId, serviceId } = await shop('expire-after-failure');
    const { conversion } = await convert(organizationId, await hold(organizationId, serviceId));
    const { provider, cancels } = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, provider, at(6));
    await webhook('payment_intent.payment_failed', intentId, 2500)(at(7));
    // The worker's jobs past the window: the orders' checkout sweep, then the bookings sweep.
    await expireCheckoutSessions(db, { at: at(40), email: EMAIL });
    // (Other bookings of this file's database past their window expire too; this one is looked at.)
    await expireBookingPaymentWindows(db, { at: at(40), email: EMAIL });
    await runPaymentActions(db, { payments: provider, at: at(40) });
    expect(cancels).toContain(intentId);
    expect((await bookingRow(organizationId, conversion.bookingId!)).status).toBe('EXPIRED');
    const attempt = await db
      .selectFrom('payment_attempts')
      .select(['status', 'provider_action'])
      .where('intent_id', '=', intentId)
      .executeTakeFirstOrThrow();
    expect(attempt).toEqual({ status: 'CANCELLED', provider_action: null });
  });
});

describe.runIf(testDatabaseKind === 'postgres')('conversion concurrency (postgres, real connections)', () => {
  it('20 concurrent conversions with the hold’s key make one booking; the others replay it', async () => {
    const { organizationId, serviceId } = await shop('convert-race-key');
    const held = await hold(organizationId, serviceId);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => convert(organizationId, held)));
    const ids = new Set(outcomes.map((outcome) => outcome.conversion.bookingId));
    expect(ids.size).toBe(1);
    expect(outcomes.filter((outcome) => !outcome.replayed)).toHaveLength(1);
    const bookings = await db
      .selectFrom('bookings')
      .select('id')
      .where('organization_id', '=', organizationId)
      .execute();
    expect(bookings).toHaveLength(1);
    const sessions = await db
      .selectFrom('checkout_sessions')
      .select('id')
      .where('organization_id', '=', organizationId)
      .execute();
    expect(sessions).toHaveLength(1);
  });

  it('a conversion racing its hold’s expiry and a new hold for the same unit: never both (20 rounds)', async () => {
    for (let round = 0; round < 20; round += 1) {
      const { organizationId, kayaks, serviceId } = await shop(`convert-race-expiry-${round}`);
      const first = await hold(organizationId, serviceId);
      // The conversion's clock reads just before the expiry; the new hold's just after it.
      const results = await Promise.allSettled([
        convert(organizationId, first, { at: new Date(at(30).getTime() - 1) }),
        hold(organizationId, serviceId, { at: at(30) }),
      ]);
      const converted = results[0].status === 'fulfilled' && results[0].value.conversion.bookingId !== null;
      const held = results[1].status === 'fulfilled';
      expect(converted && held, `round ${round}`).toBe(false);
      expect(converted || held, `round ${round}`).toBe(true);
      if (results[1].status === 'rejected')
        expect((results[1].reason as { code: string }).code).toBe('CAPACITY_UNAVAILABLE');
      if (results[0].status === 'fulfilled' && !converted)
        expect(results[0].value.conversion.terminalReason).toBe('CAPACITY_LOST');
      expect(await liveUnits(organizationId, kayaks, at(30))).toBeLessThanOrEqual(1);
      expect(await liveUnits(organizationId, kayaks, at(30))).toBe(1);
    }
  });
});

describe(`hold limits count unpaid conversions (${testDatabaseKind})`, () => {
  const CLIENT = '192.0.2.44';

  /** Holds then converts from `client`, `count` times, a minute apart from `from`; the bookings. */
  async function holdAndConvert(
    organizationId: string,
    serviceId: string,
    count: number,
    options: { client?: string; email?: string; from?: number } = {},
  ) {
    const conversions = [];
    for (let index = 0; index < count; index += 1) {
      const when = at((options.from ?? 0) + index / 10);
      const held = await hold(organizationId, serviceId, {
        at: when,
        client: options.client ?? `192.0.2.${100 + index}`,
        ...(options.email ? { email: options.email } : {}),
      });
      const { conversion } = await convert(organizationId, held, { at: when });
      expect(conversion.bookingStatus).toBe('PENDING_PAYMENT');
      conversions.push(conversion);
    }
    return conversions;
  }

  it('10 hold-and-convert pairs then a hold from the same address: 429 with Retry-After until the first payment window closes; paying, cancelling or expiring one frees a slot', async () => {
    const { organizationId, serviceId } = await shop('limit-unpaid-client', { capacity: 100 });
    const conversions = await holdAndConvert(organizationId, serviceId, 10, { client: CLIENT });
    // The first payment window closes at at(30); the refused hold asks at at(6).
    expect(await refusal(() => hold(organizationId, serviceId, { at: at(6), client: CLIENT }))).toMatchObject(
      {
        code: 'RATE_LIMIT_EXCEEDED',
      },
    );
    const limited = await hold(organizationId, serviceId, { at: at(6), client: CLIENT }).catch(
      (error: unknown) => error as { retryAfterSeconds?: number },
    );
    expect(limited).toMatchObject({ retryAfterSeconds: 24 * 60 });
    // Another address is unaffected.
    await hold(organizationId, serviceId, { at: at(6), client: '192.0.2.45' });

    // Paid: the booking is the client's no more.
    const { provider } = fakeProvider();
    const intentId = await pay(conversions[0]!.checkoutToken!, provider, at(7));
    await webhook('payment_intent.succeeded', intentId, 2500)(at(7));
    await hold(organizationId, serviceId, { at: at(8), client: CLIENT });
    expect((await refusal(() => hold(organizationId, serviceId, { at: at(8), client: CLIENT }))).code).toBe(
      'RATE_LIMIT_EXCEEDED',
    );

    // Cancelled: likewise.
    await db.transaction().execute((trx) =>
      cancelBooking(trx, { organizationId, at: at(9), email: EMAIL }, conversions[1]!.bookingId!, {
        actor: 'MERCHANT',
        userId: 'usr_owner',
      }),
    );
    await hold(organizationId, serviceId, { at: at(9), client: CLIENT });
    expect((await refusal(() => hold(organizationId, serviceId, { at: at(9), client: CLIENT }))).code).toBe(
      'RATE_LIMIT_EXCEEDED',
    );

    // Expired: a payment window that closed releases its booking, before the sweep marks it.
    await hold(organizationId, serviceId, { at: at(30.25), client: CLIENT });
  });

  it('counts the unpaid conversions of one email across addresses', async () => {
    const { organizationId, serviceId } = await shop('limit-unpaid-email', { capacity: 100 });
    await holdAndConvert(organizationId, serviceId, 10, { email: 'Many@Example.com' });
    expect(
      (
        await refusal(() =>
          hold(organizationId, serviceId, { at: at(6), client: '192.0.2.250', email: 'many@example.com' }),
        )
      ).code,
    ).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('20 concurrent hold-and-convert pairs from one address: 10 bookings, never more', async () => {
    const { organizationId, serviceId } = await shop('limit-unpaid-race', { capacity: 100 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, async () => {
        const held = await hold(organizationId, serviceId, { at: at(1), client: CLIENT });
        return convert(organizationId, held, { at: at(1) });
      }),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
    for (const outcome of outcomes)
      if (outcome.status === 'rejected')
        expect(outcome.reason).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    const unpaid = await db
      .selectFrom('bookings')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'PENDING_PAYMENT')
      .execute();
    expect(unpaid).toHaveLength(10);
    expect((await refusal(() => hold(organizationId, serviceId, { at: at(2), client: CLIENT }))).code).toBe(
      'RATE_LIMIT_EXCEEDED',
    );
  });
});

describe(`the per-email limit cannot lock the email's owner out (${testDatabaseKind})`, () => {
  it('10 holds in a customer’s email from elsewhere leave the signed-in owner their own 10', async () => {
    const { organizationId, serviceId } = await shop('limit-email-owner', { capacity: 100 });
    const owner = { id: 'cus_limit_owner', email: 'owner@example.com' };
    await db
      .insertInto('customers')
      .values({
        organization_id: organizationId,
        id: owner.id,
        email: owner.email,
        email_verified_at: NOW,
        pending_email: null,
        name: null,
        phone: null,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    // A stranger, from 10 addresses, holds in the owner's email (one of them converted, unpaid).
    for (let index = 0; index < 10; index += 1) {
      const held = await hold(organizationId, serviceId, {
        client: `203.0.113.${200 + index}`,
        email: 'Owner@Example.com',
      });
      if (index === 0) await convert(organizationId, held, { at: NOW });
    }
    // Anyone else holding in that email as a guest is refused...
    expect(
      (await refusal(() => hold(organizationId, serviceId, { client: '203.0.113.250', email: owner.email })))
        .code,
    ).toBe('RATE_LIMIT_EXCEEDED');
    // ...and so is a customer signed in as someone else.
    expect(
      (
        await refusal(() =>
          hold(organizationId, serviceId, {
            client: '203.0.113.251',
            email: owner.email,
            customer: { id: owner.id, email: 'someone-else@example.com' },
          }),
        )
      ).code,
    ).toBe('RATE_LIMIT_EXCEEDED');
    // The owner, signed in with the verified email, still holds: 10 of their own, then 429.
    const mine = [];
    for (let index = 0; index < 10; index += 1) {
      mine.push(
        await hold(organizationId, serviceId, {
          client: `198.18.0.${index}`,
          email: 'OWNER@example.com',
          customer: owner,
        }),
      );
    }
    expect(
      (
        await refusal(() =>
          hold(organizationId, serviceId, { client: '198.18.0.99', email: owner.email, customer: owner }),
        )
      ).code,
    ).toBe('RATE_LIMIT_EXCEEDED');
    // The owner's conversion keeps counting on the owner's side.
    const { conversion } = await convert(organizationId, mine[0]!, { at: NOW, customerId: owner.id });
    const booking = await bookingRow(organizationId, conversion.bookingId!);
    expect(booking).toMatchObject({ status: 'PENDING_PAYMENT', email_proven: true });
    expect(
      (
        await refusal(() =>
          hold(organizationId, serviceId, { client: '198.18.0.98', email: owner.email, customer: owner }),
        )
      ).code,
    ).toBe('RATE_LIMIT_EXCEEDED');
  });
});

describe(`booking emails to one address are capped (${testDatabaseKind})`, () => {
  it('a stranger’s 10 unpaid bookings in a customer’s email hold back none of the signed-in owner’s emails, and a kept payment’s CONFIRMED always goes', async () => {
    const { organizationId, serviceId } = await shop('mail-cap-owner', { capacity: 100 });
    const owner = { id: 'cus_mail_owner', email: 'mail-owner@example.com' };
    await db
      .insertInto('customers')
      .values({
        organization_id: organizationId,
        id: owner.id,
        email: owner.email,
        email_verified_at: NOW,
        pending_email: null,
        name: null,
        phone: null,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    // A stranger, from 10 addresses, converts 10 unpaid bookings in the owner's email: 10 emails.
    let firstStranger: string | undefined;
    for (let index = 0; index < 10; index += 1) {
      const held = await hold(organizationId, serviceId, {
        client: `203.0.113.${100 + index}`,
        email: owner.email,
      });
      const { conversion } = await convert(organizationId, held, { at: NOW });
      firstStranger ??= conversion.checkoutToken!;
    }
    const toOwner = async () =>
      (await bookingEmails(organizationId)).filter((email) => email.to === owner.email).map((e) => e.event);
    expect(await toOwner()).toHaveLength(10);
    // The owner, signed in, books and pays: their payment request and confirmation both go.
    const mine = await hold(organizationId, serviceId, {
      client: '203.0.113.200',
      email: owner.email,
      customer: owner,
    });
    const { conversion } = await convert(organizationId, mine, { at: NOW, customerId: owner.id });
    expect((await toOwner()).slice(10)).toEqual(['PAYMENT_REQUIRED']);
    const fake = fakeProvider();
    const intentId = await pay(conversion.checkoutToken!, fake.provider, at(1));
    expect(await webhook('payment_intent.succeeded', intentId, 2500)(at(2))).toMatchObject({
      result: 'PAID',
    });
    expect((await toOwner()).slice(10)).toEqual(['PAYMENT_REQUIRED', 'PAYMENT_RECEIVED', 'CONFIRMED']);
    // A stranger's booking paid while the unproven count is full: its CONFIRMED goes too, uncounted.
    const strangerIntent = await pay(firstStranger!, fake.provider, at(3));
    expect(await webhook('payment_intent.succeeded', strangerIntent, 2500)(at(4))).toMatchObject({
      result: 'PAID',
    });
    expect((await toOwner()).slice(13)).toEqual(['PAYMENT_RECEIVED', 'CONFIRMED']);
    const counts = await db
      .selectFrom('booking_email_limits')
      .select(['recipient_key', 'sent_in_window', 'held_total'])
      .where('organization_id', '=', organizationId)
      .execute();
    expect(counts).toHaveLength(2);
    expect(counts.find((row) => row.recipient_key === hashToken(owner.email))).toMatchObject({
      sent_in_window: 10,
      held_total: 0,
    });
  });

  it('11 booking requests in one email within the hour: 10 customer emails, the 11th held back and counted', async () => {
    const { organizationId, serviceId } = await shop('mail-cap-requests', {
      capacity: 100,
      checkout: { approvalMode: 'MANUAL', paymentMode: 'PAY_NOW' },
    });
    for (let index = 0; index < 11; index += 1) {
      const when = at(index);
      const held = await hold(organizationId, serviceId, {
        at: when,
        client: `192.0.2.${150 + index}`,
        email: 'victim@example.com',
      });
      const { conversion } = await convert(organizationId, held, { at: when });
      expect(conversion.bookingStatus).toBe('REQUESTED');
    }
    const emails = await bookingEmails(organizationId);
    expect(emails.filter((email) => email.to === 'victim@example.com')).toHaveLength(10);
    // The merchant's own notices are not the customer's cap.
    expect(emails.filter((email) => email.event === 'NEW_REQUEST')).toHaveLength(11);
    const counted = await db
      .selectFrom('booking_email_limits')
      .select(['sent_in_window', 'held_total'])
      .where('organization_id', '=', organizationId)
      .where('recipient_key', '=', hashToken('victim@example.com'))
      .executeTakeFirstOrThrow();
    expect(counted).toEqual({ sent_in_window: 10, held_total: 1 });
  });
});
