import { createPaymentEventBody, signWebhookPayload } from '@commerce/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoomService } from '../support/bookings.ts';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/** Converting a hold into a booking, booking payments and the payment link, through the gateway. */
const SECRET = 'whsec_booking_checkout_test';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let payNow: string;
let deposit: string;
let waiver: string;

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function service(fixture: RoleFixture, slug: string, extra: Record<string, unknown>): Promise<string> {
  return (await createRoomService(fixture, { slug, extra })).serviceId;
}

beforeAll(async () => {
  h = await createHarness({ env: { PAYMENT_WEBHOOK_SECRET: SECRET } });
  h.clock.set('2026-07-01T08:00:00Z');
  shop = await createRoleFixture(h, 'bkc-shop', ['bookings:manage']);
  other = await createRoleFixture(h, 'bkc-other');
  payNow = await service(shop, 'pay-now', { checkout: { paymentMode: 'PAY_NOW' } });
  deposit = await service(shop, 'deposit', {
    checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 50 } },
  });
  waiver = await service(shop, 'waiver', {
    checkout: { paymentMode: 'PAY_NOW' },
    agreement: { title: 'Waiver', bodyText: 'I accept.' },
  });
});
afterAll(async () => {
  await h.close();
});

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return h.app.request(`/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

let keys = 0;
async function hold(serviceId: string, hour: string) {
  keys += 1;
  const key = `bkc-hold-key-${String(keys).padStart(6, '0')}`;
  const created = await ok<{ id: string }>(
    await post(
      '/public/booking-holds',
      {
        serviceId,
        startsAt: `2026-07-02T${hour}:00:00+01:00`,
        endsAt: `2026-07-02T${String(Number(hour) + 1).padStart(2, '0')}:00:00+01:00`,
        quantity: 1,
        customerEmail: 'Ada@Example.com',
      },
      { 'x-organization-slug': shop.slug, 'x-idempotency-key': key },
    ),
    201,
  );
  return { id: created.id, key };
}

const checkout = (
  held: { id: string },
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  slug = shop.slug,
) => post(`/public/booking-holds/${held.id}/checkout`, body, { 'x-organization-slug': slug, ...headers });

const BODY = { customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' };

interface Conversion {
  flow: string;
  bookingId: string | null;
  bookingStatus: string | null;
  checkoutToken: string | null;
  amountDueNowInCents: number;
  remainingBalanceInCents: number;
  totalInCents: number;
  terminalReason: string | null;
}

async function deliver(type: string, intentId: string, amountInCents: number) {
  const body = createPaymentEventBody({
    type,
    intentId,
    amountInCents,
    currency: 'USD',
    createdAt: h.clock.now(),
  });
  const response = await h.app.request('/api/v1/webhooks/payments', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signWebhookPayload(SECRET, body, h.clock.now()),
    },
    body,
  });
  expect(response.status).toBe(200);
}

async function paymentSession(token: string) {
  const handoff = await ok<{ clientSecret: string; orderId: string | null; amountInCents: number }>(
    await post(`/public/checkout/sessions/${token}/payment-session`, {}),
    200,
  );
  return { ...handoff, intentId: handoff.clientSecret.split('_secret_')[0]! };
}

const bookingOf = (id: string) =>
  h.database.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /public/booking-holds/:id/checkout', () => {
  it('needs the hold’s key (400 without, neutral 404 with another), the hold’s email, and no delivery', async () => {
    const held = await hold(payNow, '09');
    const missing = await expectError(await checkout(held, BODY), 400, 'VALIDATION_FAILED');
    expect(missing.details?.issues?.[0]?.path).toBe('headers.x-idempotency-key');
    await expectError(
      await checkout(held, BODY, { 'x-idempotency-key': 'bkc-another-key-0000001' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await checkout(held, BODY, { 'x-idempotency-key': held.key }, other.slug),
      404,
      'RESOURCE_NOT_FOUND',
    );
    const withDelivery = await expectError(
      await checkout(held, { ...BODY, delivery: { method: 'PICKUP' } }, { 'x-idempotency-key': held.key }),
      400,
      'VALIDATION_FAILED',
    );
    expect(withDelivery.details?.issues?.map((issue) => issue.path)).toContain('delivery');
    const wrongEmail = await expectError(
      await checkout(held, { ...BODY, customerEmail: 'eve@example.com' }, { 'x-idempotency-key': held.key }),
      400,
      'VALIDATION_FAILED',
    );
    expect(wrongEmail.details?.issues?.[0]?.path).toBe('customerEmail');
    for (const body of [
      { customerEmail: 'ada@example.com' },
      { ...BODY, customerName: 'x'.repeat(201) },
      { ...BODY, customerNote: 'x'.repeat(2001) },
      { ...BODY, customerPhone: 'x'.repeat(51) },
      { ...BODY, agreement: { version: 1, signerName: 'Ada', accepted: false } },
      { ...BODY, billingAddress: { line1: '1 Main St' } },
      { ...BODY, unknown: true },
    ]) {
      await expectError(
        await checkout(held, body, { 'x-idempotency-key': held.key }),
        400,
        'VALIDATION_FAILED',
      );
    }
  });

  it('converts to PAYMENT, replays with a new c1_ for the same checkout, and refuses reprice and bind of it', async () => {
    const held = await hold(payNow, '10');
    const first = await ok<Conversion>(await checkout(held, BODY, { 'x-idempotency-key': held.key }), 200);
    expect(first).toMatchObject({
      flow: 'PAYMENT',
      bookingStatus: 'PENDING_PAYMENT',
      amountDueNowInCents: 3000,
      remainingBalanceInCents: 0,
      totalInCents: 3000,
      terminalReason: null,
    });
    expect(first.checkoutToken).toMatch(/^c1_/);
    const replay = await checkout(held, BODY, { 'x-idempotency-key': held.key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await ok<Conversion>(replay, 200);
    expect(again.bookingId).toBe(first.bookingId);
    expect(again.checkoutToken).toMatch(/^c1_/);
    expect(again.checkoutToken).not.toBe(first.checkoutToken);
    await expectError(
      await checkout(held, { ...BODY, customerName: 'Someone else' }, { 'x-idempotency-key': held.key }),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );
    for (const step of ['reprice', 'bind']) {
      await expectError(
        await post(
          `/public/checkout/sessions/${first.checkoutToken}/${step}`,
          {},
          { 'x-organization-slug': shop.slug },
        ),
        409,
        'INVALID_STATE_TRANSITION',
      );
    }
    const a = await paymentSession(first.checkoutToken!);
    const b = await paymentSession(again.checkoutToken!);
    expect(a).toMatchObject({ orderId: null, amountInCents: 3000 });
    expect(b.intentId).toBe(a.intentId);

    await deliver('payment_intent.payment_failed', a.intentId, 3000);
    expect((await bookingOf(first.bookingId!)).status).toBe('PENDING_PAYMENT');
    const retried = await paymentSession(first.checkoutToken!);
    expect(retried.intentId).toBe(a.intentId);
    await deliver('payment_intent.succeeded', a.intentId, 3000);
    const booking = await bookingOf(first.bookingId!);
    expect(booking.status).toBe('CONFIRMED');
    const sale = await h.database.db
      .selectFrom('sales_records')
      .select(['source', 'payment_status'])
      .where('id', '=', booking.sales_record_id!)
      .executeTakeFirstOrThrow();
    expect(sale).toEqual({ source: 'BOOKING', payment_status: 'PAID' });
    const replayed = await ok<Conversion>(await checkout(held, BODY, { 'x-idempotency-key': held.key }), 200);
    expect(replayed).toMatchObject({ flow: 'CONFIRMED', bookingStatus: 'CONFIRMED', checkoutToken: null });
  });

  it('asks for the service agreement: 409 AGREEMENT_REQUIRED with its serviceId and version', async () => {
    const held = await hold(waiver, '11');
    const refused = await expectError(
      await checkout(held, BODY, { 'x-idempotency-key': held.key }),
      409,
      'AGREEMENT_REQUIRED',
    );
    expect(refused.details).toEqual({ serviceId: waiver, version: 1 });
    const accepted = await ok<Conversion>(
      await checkout(
        held,
        { ...BODY, agreement: { version: 1, signerName: 'Ada Lovelace', accepted: true } },
        { 'x-idempotency-key': held.key },
      ),
      200,
    );
    expect(accepted.flow).toBe('PAYMENT');
  });
});

describe('POST /merchant/bookings/:id/payment-link', () => {
  it('emails a link for the open balance of a CONFIRMED booking; 403 without bookings:manage, neutral 404 unassigned, 409 otherwise', async () => {
    const held = await hold(deposit, '13');
    const conversion = await ok<Conversion>(
      await checkout(held, BODY, { 'x-idempotency-key': held.key }),
      200,
    );
    expect(conversion).toMatchObject({
      flow: 'PAYMENT',
      amountDueNowInCents: 1500,
      remainingBalanceInCents: 1500,
    });
    const path = `/merchant/bookings/${conversion.bookingId}/payment-link`;
    await expectError(await shop.call('owner', 'POST', path), 409, 'INVALID_STATE_TRANSITION');
    const { intentId } = await paymentSession(conversion.checkoutToken!);
    await deliver('payment_intent.succeeded', intentId, 1500);
    expect((await shop.call('staffWithout', 'POST', path)).status).toBe(403);
    await expectError(await shop.call('staffWith', 'POST', path), 404, 'RESOURCE_NOT_FOUND');
    await expectError(await other.call('owner', 'POST', path), 404, 'RESOURCE_NOT_FOUND');
    await expectError(
      await shop.call('owner', 'POST', '/merchant/bookings/bkg_unknown/payment-link'),
      404,
      'RESOURCE_NOT_FOUND',
    );
    const link = await ok<{ amountInCents: number; expiresAt: string }>(
      await shop.call('owner', 'POST', path),
      200,
    );
    expect(link).toEqual({
      amountInCents: 1500,
      expiresAt: new Date(h.clock.now().getTime() + 7 * 86_400_000).toISOString(),
    });
    await h.database.db
      .updateTable('bookings')
      .set({ assignee_user_ids: [shop.users.staffWith.userId] })
      .where('id', '=', conversion.bookingId!)
      .execute();
    expect((await shop.call('staffWith', 'POST', path)).status).toBe(200);
    const audit = await h.database.db
      .selectFrom('audit_logs')
      .select(['action', 'actor_user_id'])
      .where('organization_id', '=', shop.organizationId)
      .where('action', '=', 'booking.payment_link_sent')
      .execute();
    expect(audit.map((row) => row.actor_user_id)).toEqual([
      shop.users.owner.userId,
      shop.users.staffWith.userId,
    ]);
    const open = await h.database.db
      .selectFrom('checkout_sessions')
      .select('status')
      .where('sales_record_id', '=', (await bookingOf(conversion.bookingId!)).sales_record_id)
      .where('status', '=', 'BOUND')
      .execute();
    expect(open).toHaveLength(1);
  });
});

describe('OpenAPI', () => {
  it('documents the conversion and the payment link with their errors', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; description?: string }>>;
    };
    const conversion = document.paths['/public/booking-holds/{id}/checkout']?.post;
    expect(conversion).toBeDefined();
    expect(Object.keys(conversion!.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '409']));
    expect(JSON.stringify(conversion)).toContain('AGREEMENT_REQUIRED');
    const link = document.paths['/merchant/bookings/{id}/payment-link']?.post;
    expect(link).toBeDefined();
    expect(Object.keys(link!.responses)).toEqual(expect.arrayContaining(['200', '403', '404', '409']));
  });
});
