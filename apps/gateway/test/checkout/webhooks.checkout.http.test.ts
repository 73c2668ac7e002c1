import { createPaymentEventBody, signWebhookPayload } from '@commerce/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created, createItem, createShippingRate } from '../support/catalog-fixture.ts';
import { createHarness, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/** The webhook with the gateway's default handler: checkout's settlement, end to end over HTTP. */
const SECRET = 'whsec_webhook_checkout_test';
const SLUG = 'webhook-shop';

let h: Harness;
let shop: RoleFixture;
let itemId: string;
let rateId: string;

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  h.app.request(`/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  h = await createHarness({ env: { PAYMENT_WEBHOOK_SECRET: SECRET } });
  shop = await createRoleFixture(h, SLUG);
  itemId = await createItem(shop, {
    slug: 'kettle',
    name: 'Kettle',
    type: 'SALE',
    status: 'ACTIVE',
    priceInCents: 4000,
  });
  rateId = await createShippingRate(shop, { countries: ['DE'], priceInCents: 500 });
});

afterAll(async () => {
  await h.close();
});

/** A bound checkout session with its payment intent: the order waits for the webhook. */
async function awaitingPayment(): Promise<{ intentId: string; orderId: string; amountInCents: number }> {
  const asShop = { 'x-organization-slug': SLUG };
  const session = await created<{ checkoutToken: string }>(
    await post(
      '/public/checkout/sessions',
      { lines: [{ itemId, quantity: 1 }], email: 'ada@example.com', customerName: 'Ada Lovelace' },
      asShop,
    ),
    'session',
  );
  const steps = `/public/checkout/sessions/${session.checkoutToken}`;
  expect((await post(`${steps}/reprice`, { shippingCountry: 'DE' }, asShop)).status).toBe(200);
  expect((await post(`${steps}/bind`, { shippingRateId: rateId }, asShop)).status).toBe(200);
  const paying = await post(`${steps}/payment-session`, {});
  expect(paying.status).toBe(200);
  const handoff = (await paying.json()) as { clientSecret: string; orderId: string; amountInCents: number };
  const [intentId] = handoff.clientSecret.split('_secret_');
  return { intentId: intentId!, orderId: handoff.orderId, amountInCents: handoff.amountInCents };
}

async function deliver(type: string, intentId: string, amountInCents: number, id?: string) {
  const body = createPaymentEventBody({
    ...(id ? { id } : {}),
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
  return ((await response.json()) as { outcome: string }).outcome;
}

async function paymentStatusOf(orderId: string): Promise<string> {
  const response = await shop.call('owner', 'GET', `/merchant/orders/${orderId}`);
  return ((await response.json()) as { paymentStatus: string }).paymentStatus;
}

describe('payment webhook → checkout settlement', () => {
  it('marks the order PAID on payment_intent.succeeded, once', async () => {
    const { intentId, orderId, amountInCents } = await awaitingPayment();
    expect(intentId).toMatch(/^pi_sandbox_/);
    expect(await paymentStatusOf(orderId)).toBe('AWAITING_PAYMENT');

    expect(await deliver('payment_intent.succeeded', intentId, amountInCents, 'evt_paid_1')).toBe(
      'processed',
    );
    expect(await paymentStatusOf(orderId)).toBe('PAID');
    expect(await deliver('payment_intent.succeeded', intentId, amountInCents, 'evt_paid_1')).toBe(
      'duplicate',
    );
    // A late failure event (another id) for a paid intent changes nothing.
    expect(await deliver('payment_intent.payment_failed', intentId, amountInCents, 'evt_paid_2')).toBe(
      'processed',
    );
    expect(await paymentStatusOf(orderId)).toBe('PAID');
  });

  it('leaves the order unpaid for a success of another amount, and records the event id', async () => {
    const { intentId, orderId, amountInCents } = await awaitingPayment();
    expect(await deliver('payment_intent.succeeded', intentId, amountInCents - 1, 'evt_short_1')).toBe(
      'processed',
    );
    expect(await paymentStatusOf(orderId)).toBe('AWAITING_PAYMENT');
    expect(await deliver('payment_intent.succeeded', intentId, amountInCents - 1, 'evt_short_1')).toBe(
      'duplicate',
    );
    expect(await deliver('payment_intent.succeeded', intentId, amountInCents, 'evt_full_1')).toBe(
      'processed',
    );
    expect(await paymentStatusOf(orderId)).toBe('PAID');
  });

  it('marks the order FAILED on payment_intent.payment_failed', async () => {
    const { intentId, orderId, amountInCents } = await awaitingPayment();
    expect(await deliver('payment_intent.payment_failed', intentId, amountInCents)).toBe('processed');
    expect(await paymentStatusOf(orderId)).toBe('FAILED');
  });

  it('acknowledges an event for an intent no checkout made, and logs it', async () => {
    expect(
      await deliver('payment_intent.succeeded', 'pi_sandbox_unknown0000000000000000', 100, 'evt_unknown_1'),
    ).toBe('processed');
    expect(
      h.logs.some(
        (line) => line.msg === 'payment event for an unknown intent' && line.eventId === 'evt_unknown_1',
      ),
    ).toBe(true);
  });
});
