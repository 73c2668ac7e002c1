import { checkBookingPayments, expireBookingPaymentWindows } from '@commerce/bookings';
import { loadConfig } from '@commerce/core';
import { testDatabaseKind } from '@commerce/db/testing';
import { expireCheckoutSessions, runPaymentActions } from '@commerce/orders';
import {
  createPaymentEventBody,
  createPaymentProvider,
  type PaymentProvider,
  signWebhookPayload,
} from '@commerce/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * A booking never keeps more than its total: a resent
 * balance link paid twice, concurrent successes of every intent of one booking, and a customer's
 * cancel racing its payment's webhook, through the gateway with signed sandbox webhooks. The sandbox
 * processor is wrapped to record the refunds and cancellations it is asked for.
 */
const SECRET = 'whsec_booking_balance_test';
const TOTAL = 3000;
const DEPOSIT = 1500;

interface RecordingProvider extends PaymentProvider {
  refunds: string[];
  cancels: string[];
}

function recordingSandbox(): RecordingProvider {
  const sandbox = createPaymentProvider(loadConfig({ NODE_ENV: 'test', PAYMENT_WEBHOOK_SECRET: SECRET }));
  const provider: RecordingProvider = {
    ...sandbox,
    refunds: [],
    cancels: [],
    async refundPayment(intentId, options) {
      provider.refunds.push(intentId);
      return sandbox.refundPayment(intentId, options);
    },
    async cancelPaymentIntent(intentId, options) {
      provider.cancels.push(intentId);
      return sandbox.cancelPaymentIntent(intentId, options);
    },
  };
  return provider;
}

let h: Harness;
let shop: RoleFixture;
let payments: RecordingProvider;
let deposit: string;
let payNow: string;

async function ok<T>(response: Response, status = 200): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function service(slug: string, checkout: Record<string, unknown>): Promise<string> {
  const resource = await ok<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-resources', {
      name: slug,
      kind: 'SPACE',
      capacity: 500,
    }),
    201,
  );
  const daily = [{ start: '09:00', end: '17:00' }];
  const created = await ok<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-services', {
      slug,
      name: 'Room',
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'Europe/Lisbon',
      durations: { choicesMinutes: [60] },
      availability: { weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily } },
      requirements: [{ name: 'Room', resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: TOTAL },
      checkout,
    }),
    201,
  );
  return created.id;
}

beforeAll(async () => {
  payments = recordingSandbox();
  h = await createHarness({
    env: { PAYMENT_WEBHOOK_SECRET: SECRET, TRUST_PROXY: 'true' },
    payments,
    poolSize: 30,
  });
  h.clock.set('2026-07-01T08:00:00Z');
  shop = await createRoleFixture(h, 'bkbal-shop', ['bookings:manage']);
  deposit = await service('deposit', { paymentMode: 'DEPOSIT', deposit: { percent: 50 } });
  payNow = await service('pay-now', { paymentMode: 'PAY_NOW' });
});
afterAll(async () => {
  await h.close();
});

let clients = 0;
function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  clients += 1;
  return h.app.request(`/api/v1${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-organization-slug': shop.slug,
      // A client address of its own: no per-client hold limit interferes.
      'x-forwarded-for': `10.9.${(clients >> 8) & 255}.${clients & 255}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** A booking converted to its PAYMENT flow: its id, `c1_` and the management token its email carries. */
async function pendingBooking(serviceId: string) {
  clients += 1;
  const key = `bkbal-hold-key-${String(clients).padStart(6, '0')}`;
  const email = `guest${clients}@example.com`;
  const held = await ok<{ id: string }>(
    await post(
      '/public/booking-holds',
      {
        serviceId,
        startsAt: '2026-07-02T10:00:00+01:00',
        endsAt: '2026-07-02T11:00:00+01:00',
        quantity: 1,
        customerEmail: email,
      },
      { 'x-idempotency-key': key },
    ),
    201,
  );
  const conversion = await ok<{ bookingId: string; checkoutToken: string; flow: string }>(
    await post(
      `/public/booking-holds/${held.id}/checkout`,
      { customerName: 'Ada Lovelace', customerEmail: email },
      { 'x-idempotency-key': key },
    ),
  );
  expect(conversion.flow).toBe('PAYMENT');
  const text = await lastEmailText(conversion.bookingId);
  const manageToken = /\/bookings\/manage\/(m1_[A-Za-z0-9_-]+)/.exec(text)![1]!;
  return { bookingId: conversion.bookingId, checkoutToken: conversion.checkoutToken, manageToken };
}

async function lastEmailText(bookingId: string): Promise<string> {
  const rows = await h.database.db
    .selectFrom('outbox')
    .select(['metadata', 'payload'])
    .where('organization_id', '=', shop.organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const row = rows.find(
    (candidate) => (candidate.metadata as { bookingId?: string }).bookingId === bookingId,
  );
  return (row!.payload as { text: string }).text;
}

/** Starts the payment of a `c1_`: the intent id the sandbox armed. */
async function paymentSession(token: string) {
  const handoff = await ok<{ clientSecret: string }>(
    await post(`/public/checkout/sessions/${token}/payment-session`, {}),
  );
  return handoff.clientSecret.split('_secret_')[0]!;
}

/** A signed success (a new event id each time) for `intentId`, as the processor delivers it. */
function deliver(intentId: string, amountInCents: number, type = 'payment_intent.succeeded') {
  const body = createPaymentEventBody({
    type,
    intentId,
    amountInCents,
    currency: 'USD',
    createdAt: h.clock.now(),
  });
  return h.app.request('/api/v1/webhooks/payments', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signWebhookPayload(SECRET, body, h.clock.now()),
    },
    body,
  });
}

/** The merchant resends the balance link: the `c1_` of the link just emailed. */
async function sendLink(bookingId: string) {
  const link = await ok<{ amountInCents: number }>(
    await shop.call('owner', 'POST', `/merchant/bookings/${bookingId}/payment-link`),
  );
  expect(link.amountInCents).toBe(TOTAL - DEPOSIT);
  return /checkout\/pay\?token=(c1_[A-Za-z0-9_-]+)/.exec(await lastEmailText(bookingId))![1]!;
}

interface BookingPayment {
  totalInCents: number;
  paidInCents: number;
  balanceDueInCents: number;
  refundRequired: boolean;
  paymentStatus: string;
}
async function paymentOf(bookingId: string) {
  const detail = await ok<{ status: string; payment: BookingPayment }>(
    await shop.call('owner', 'GET', `/merchant/bookings/${bookingId}`),
  );
  return { status: detail.status, ...detail.payment };
}

/** A CONFIRMED deposit booking whose two balance links are both armed: link 1 closed by the resend. */
async function resentLinks() {
  const booking = await pendingBooking(deposit);
  const depositIntent = await paymentSession(booking.checkoutToken);
  expect((await deliver(depositIntent, DEPOSIT)).status).toBe(200);
  const link1 = await sendLink(booking.bookingId);
  const intent1 = await paymentSession(link1);
  const link2 = await sendLink(booking.bookingId);
  const intent2 = await paymentSession(link2);
  return { ...booking, depositIntent, link1, intent1, link2, intent2 };
}

describe(`a booking keeps at most its total over HTTP (${testDatabaseKind})`, () => {
  it('a resent link paid on both links: the booking ends with exactly its total and one refund at the processor', async () => {
    const refundsBefore = payments.refunds.length;
    const t = await resentLinks();
    // The processor took link 1's payment before the resend's cancellation reached it…
    expect((await deliver(t.intent1, TOTAL - DEPOSIT)).status).toBe(200);
    // …and the customer pays link 2.
    expect((await deliver(t.intent2, TOTAL - DEPOSIT)).status).toBe(200);
    expect(await paymentOf(t.bookingId)).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      totalInCents: TOTAL,
      paidInCents: TOTAL,
      balanceDueInCents: 0,
      refundRequired: false,
    });
    expect(payments.refunds.slice(refundsBefore)).toEqual([t.intent1]);
    // Nothing is due: neither link starts a payment any more, and no new link is sent.
    await expectError(
      await post(`/public/checkout/sessions/${t.link1}/payment-session`, {}),
      409,
      'INVALID_STATE_TRANSITION',
    );
    await expectError(
      await shop.call('owner', 'POST', `/merchant/bookings/${t.bookingId}/payment-link`),
      409,
      'INVALID_STATE_TRANSITION',
    );
    const audit = await h.database.db
      .selectFrom('audit_logs')
      .select('action')
      .where('organization_id', '=', shop.organizationId)
      .where('target_id', 'in', [t.bookingId])
      .where('action', '=', 'booking.payment_refunded')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('20 concurrent successes of the deposit and both links, in random order: never above the total, refunds equal the surplus', async () => {
    const refundsBefore = payments.refunds.length;
    const t = await resentLinks();
    const amounts = new Map([
      [t.depositIntent, DEPOSIT],
      [t.intent1, TOTAL - DEPOSIT],
      [t.intent2, TOTAL - DEPOSIT],
    ]);
    const intents = [...amounts.keys()];
    const deliveries = Array.from({ length: 20 }, (_, index) => intents[index % 3]!);
    for (let index = deliveries.length - 1; index > 0; index -= 1) {
      const other = Math.floor(Math.random() * (index + 1));
      [deliveries[index], deliveries[other]] = [deliveries[other]!, deliveries[index]!];
    }
    let done = false;
    const reads: number[] = [];
    const reader = (async () => {
      while (!done) reads.push((await paymentOf(t.bookingId)).paidInCents);
    })();
    const responses = await Promise.all(
      deliveries.map((intentId) => deliver(intentId, amounts.get(intentId)!)),
    );
    done = true;
    await reader;
    expect(responses.map((response) => response.status)).toEqual(deliveries.map(() => 200));
    reads.push((await paymentOf(t.bookingId)).paidInCents);
    expect(Math.max(...reads)).toBeLessThanOrEqual(TOTAL);
    expect(await paymentOf(t.bookingId)).toMatchObject({ paidInCents: TOTAL, balanceDueInCents: 0 });
    // The refund is made right after its webhook's commit, unless a duplicate delivery held the
    // attempt's row at that instant (the claim skips locked rows): then the worker's pass makes it.
    await runPaymentActions(h.database.db, { payments, at: h.clock.now() });
    const refunded = payments.refunds.slice(refundsBefore);
    const paidAtProcessor = [...amounts.values()].reduce((sum, amount) => sum + amount, 0);
    expect(refunded.reduce((sum, intentId) => sum + amounts.get(intentId)!, 0)).toBe(paidAtProcessor - TOTAL);
    expect(new Set(refunded).size).toBe(refunded.length);
    expect(await checkBookingPayments(h.database.db, { organizationId: shop.organizationId })).toMatchObject({
      ok: true,
      refundsOwed: 0,
    });
  }, 60_000);

  it('a failed payment then the window’s expiry: the failed intent is cancelled at the processor', async () => {
    const booking = await pendingBooking(payNow);
    const intentId = await paymentSession(booking.checkoutToken);
    expect((await deliver(intentId, TOTAL, 'payment_intent.payment_failed')).status).toBe(200);
    const late = new Date(h.clock.now().getTime() + 60 * 60_000);
    const email = { emailFrom: 'Shop <no-reply@shop.example>', linkBase: 'https://shop.example' };
    // The worker's jobs past the window: the orders' checkout sweep, then the bookings sweep.
    await expireCheckoutSessions(h.database.db, { at: late, email });
    await expireBookingPaymentWindows(h.database.db, { at: late, email });
    await runPaymentActions(h.database.db, { payments, at: late });
    expect(payments.cancels).toContain(intentId);
    expect((await paymentOf(booking.bookingId)).status).toBe('EXPIRED');
  });
});

describe(`late payments over HTTP (${testDatabaseKind})`, () => {
  it('a success after the booking expired and started: EXPIRED kept, refunded in full at the processor, merchant emailed', async () => {
    await h.database.db
      .insertInto('organization_settings')
      .values({
        organization_id: shop.organizationId,
        notifications: JSON.stringify({ bookingEmail: 'bookings@bkbal.example' }),
        created_at: h.clock.now(),
        updated_at: h.clock.now(),
      })
      .onConflict((oc) =>
        oc.column('organization_id').doUpdateSet({
          notifications: JSON.stringify({ bookingEmail: 'bookings@bkbal.example' }),
        }),
      )
      .execute();
    const booking = await pendingBooking(payNow);
    const intentId = await paymentSession(booking.checkoutToken);
    const email = { emailFrom: 'Shop <no-reply@shop.example>', linkBase: 'https://shop.example' };
    const expiry = new Date(h.clock.now().getTime() + 60 * 60_000);
    await expireBookingPaymentWindows(h.database.db, { at: expiry, email });
    expect((await paymentOf(booking.bookingId)).status).toBe('EXPIRED');
    const before = h.clock.now();
    // The processor's success arrives after the booking's start (10:00 Lisbon on July 2nd).
    h.clock.set('2026-07-02T09:30:00Z');
    let delivered: Response;
    try {
      delivered = await deliver(intentId, TOTAL);
    } finally {
      h.clock.set(before.toISOString());
    }
    expect(delivered.status).toBe(200);
    expect(await paymentOf(booking.bookingId)).toMatchObject({
      status: 'EXPIRED',
      paidInCents: 0,
      paymentStatus: 'REFUNDED',
      refundRequired: false,
    });
    expect(payments.refunds).toContain(intentId);
    expect(await lastEmailText(booking.bookingId)).toContain('Late payment refunded');
  });
});

describe.runIf(testDatabaseKind === 'postgres')('a customer’s cancel racing its payment (postgres)', () => {
  it('50 rounds: no 500, no deadlock reaching a client, never more kept than the total', async () => {
    const statuses: Record<string, number> = {};
    // The 50 bookings, each with its payment armed, made ahead (ten at a time); then one race per round.
    const rounds: { bookingId: string; manageToken: string; intentId: string }[] = [];
    for (let batch = 0; batch < 5; batch += 1) {
      rounds.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, async () => {
            const booking = await pendingBooking(payNow);
            return { ...booking, intentId: await paymentSession(booking.checkoutToken) };
          }),
        )),
      );
    }
    for (const { bookingId, manageToken, intentId } of rounds) {
      const [cancel, webhook] = await Promise.all([
        post(`/customer/bookings/${manageToken}/cancel-request`, {}),
        deliver(intentId, TOTAL),
      ]);
      const cancelBody = (await cancel.json()) as { error?: { code: string } };
      const label = `cancel ${cancel.status}${cancelBody.error ? ` ${cancelBody.error.code}` : ''}`;
      statuses[label] = (statuses[label] ?? 0) + 1;
      // A lost deadlock would reach the client as 409 STALE_STATE (or a 500): neither may.
      expect(webhook.status).toBe(200);
      expect(cancel.status).toBeLessThan(500);
      expect(cancelBody.error?.code).not.toBe('STALE_STATE');
      const payment = await paymentOf(bookingId);
      expect(payment.paidInCents).toBeLessThanOrEqual(TOTAL);
      if (payment.status === 'CANCELLED' && payment.paidInCents === 0) {
        // Refunded right after the webhook's commit, or by the worker's pass if the cancel's own
        // after-commit call held the attempt's row at that instant.
        await runPaymentActions(h.database.db, { payments, at: h.clock.now() });
        expect(payments.refunds).toContain(intentId);
      }
    }
    expect((await checkBookingPayments(h.database.db, { organizationId: shop.organizationId })).ok).toBe(
      true,
    );
    // The cancel applies (before the payment, or after it under the policy) or is refused by the policy.
    expect(Object.keys(statuses).every((label) => !label.includes(' 5') && !label.includes('STALE'))).toBe(
      true,
    );
  }, 300_000);
});
