import { loadConfig } from '@commerce/core';
import { createPaymentEventBody, createStripePaymentProvider, signWebhookPayload } from '@commerce/payments';
import { type FakeStripe, startFakeStripe } from '@commerce/payments/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { created, createItem, createShippingRate } from '../support/catalog-fixture.ts';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

// Sandbox tax: the US flat rate of 7.25 % on goods and shipping.
const ENV = { TAX_PROVIDER: 'sandbox' };
const config = loadConfig({ NODE_ENV: 'test', ...ENV });

let h: Harness;
let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe();
  h = await createHarness({
    env: ENV,
    // Stripe over its SDK, against the local stand-in: what the service sends is what Stripe would get.
    payments: createStripePaymentProvider({
      secretKey: 'sk_test_currencies',
      publishableKey: 'pk_test_currencies',
      webhookSecret: config.payments.webhookSecret,
      api: fake.api,
      maxNetworkRetries: 0,
      timeoutMs: 5_000,
    }),
  });
});

afterAll(async () => {
  await h.close();
  await fake.close();
});

beforeEach(() => fake.reset());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  h.app.request(`/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** A store selling in `currency` one item at `priceInCents` minor units. */
async function storeIn(slug: string, currency: string, priceInCents: number) {
  const shop = await createRoleFixture(h, slug);
  const settings = await shop.call('owner', 'PATCH', '/merchant/settings', {
    checkoutSettings: { currency },
  });
  expect(settings.status).toBe(200);
  const itemId = await createItem(shop, {
    slug: 'thing',
    name: 'Thing',
    type: 'SALE',
    status: 'ACTIVE',
    priceInCents,
  });
  // Free shipping to the destinations used, so the sandbox taxes by country.
  await createShippingRate(shop, { countries: ['US', 'FR', 'IS'], priceInCents: 0 });
  return { shop, itemId };
}

/** Opens and binds a session shipping to `country`; answers the bound totals and the token. */
async function bound(shop: RoleFixture, itemId: string, country: string) {
  const tenant = { 'x-organization-slug': shop.slug };
  const session = await created<{ checkoutToken: string }>(
    await post(
      '/public/checkout/sessions',
      {
        lines: [{ itemId, quantity: 1 }],
        email: 'ada@example.com',
        customerName: 'Ada',
        shippingCountry: country,
      },
      tenant,
    ),
    'session',
  );
  const binding = await post(`/public/checkout/sessions/${session.checkoutToken}/bind`, {}, tenant);
  expect(binding.status).toBe(200);
  const totals = (await binding.json()) as { currency: string; taxInCents: number; totalInCents: number };
  return { token: session.checkoutToken, ...totals };
}

async function paySignedByStripe(intentId: string, stripeAmount: number, currency: string) {
  const body = createPaymentEventBody({
    type: 'payment_intent.succeeded',
    intentId,
    amountInCents: stripeAmount,
    currency,
    createdAt: h.clock.now(),
  });
  const response = await h.app.request('/api/v1/webhooks/payments', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signWebhookPayload(config.payments.webhookSecret, body, h.clock.now()),
    },
    body,
  });
  expect(await response.json()).toEqual({ received: true, outcome: 'processed' });
}

async function confirmationText(shop: RoleFixture): Promise<string> {
  const rows = await h.database.db
    .selectFrom('outbox')
    .select(['metadata', 'payload'])
    .where('organization_id', '=', shop.organizationId)
    .execute();
  const confirmation = rows.find(
    (row) => (row.metadata as { templateType: string }).templateType === 'ORDER_CONFIRMATION',
  );
  return (confirmation!.payload as { text: string }).text;
}

async function paymentSession(token: string) {
  const response = await post(`/public/checkout/sessions/${token}/payment-session`, {});
  expect(response.status).toBe(200);
  const handoff = (await response.json()) as { clientSecret: string; orderId: string; amountInCents: number };
  return { ...handoff, intentId: handoff.clientSecret.split('_secret_')[0]! };
}

describe('checkout in currencies without two decimals, through Stripe', () => {
  it('charges a JPY total in whole yen, and reads the webhook amount back as yen', async () => {
    const { shop, itemId } = await storeIn('yen-shop', 'JPY', 1280);
    // 7.25 % of ¥1,280 is ¥92.8: rounded to the yen.
    const totals = await bound(shop, itemId, 'US');
    expect(totals).toMatchObject({ currency: 'JPY', taxInCents: 93, totalInCents: 1373 });

    const handoff = await paymentSession(totals.token);
    expect(handoff.amountInCents).toBe(1373);
    const intents = fake.requests.filter((request) => request.path === '/v1/payment_intents');
    expect(intents.map((request) => [request.form.get('amount'), request.form.get('currency')])).toEqual([
      ['1373', 'jpy'],
    ]);

    await paySignedByStripe(handoff.intentId, 1373, 'JPY');
    const order = await shop.call('owner', 'GET', `/merchant/orders/${handoff.orderId}`);
    expect(await order.json()).toMatchObject({ paymentStatus: 'PAID', totalInCents: 1373, currency: 'JPY' });
    expect(await confirmationText(shop)).toContain('¥1,373');
  });

  it('keeps a KWD total to the fils (3 decimals) and refuses, before Stripe, one it cannot take', async () => {
    const { shop, itemId } = await storeIn('dinar-shop', 'KWD', 12_345);
    // 7.25 % of KWD 12.345 is KWD 0.8950125: rounded to the fils, 0.895.
    const totals = await bound(shop, itemId, 'US');
    expect(totals).toMatchObject({ currency: 'KWD', taxInCents: 895, totalInCents: 13_240 });
    const handoff = await paymentSession(totals.token);
    expect(fake.requests.map((request) => request.form.get('amount'))).toEqual(['13240']);
    await paySignedByStripe(handoff.intentId, 13_240, 'KWD');
    expect(await confirmationText(shop)).toContain('KWD\u00a013.240');

    // Stripe takes three-decimal amounts in multiples of 10 fils only: KWD 12.345 alone is refused here.
    fake.reset();
    const other = await bound(shop, itemId, 'FR');
    expect(other.totalInCents).toBe(12_345 + 2_469);
    const refused = await expectError(
      await post(`/public/checkout/sessions/${other.token}/payment-session`, {}),
      502,
      'PROVIDER_ERROR',
    );
    expect(refused.message).toContain('multiples of 0.010');
    expect(fake.requests).toHaveLength(0);
    // Refused before the order is placed: no PENDING order, no attempt, no stock held for a payment window.
    const rowsOf = (table: 'orders' | 'payment_attempts') =>
      h.database.db
        .selectFrom(table)
        .select('id')
        .where('organization_id', '=', shop.organizationId)
        .execute();
    expect(await rowsOf('orders')).toHaveLength(1);
    expect(await rowsOf('payment_attempts')).toHaveLength(1);
    const sessions = await h.database.db
      .selectFrom('checkout_sessions')
      .select(['status', 'order_id'])
      .where('organization_id', '=', shop.organizationId)
      .orderBy('id')
      .execute();
    expect(sessions.at(-1)).toEqual({ status: 'BOUND', order_id: null });
  });

  it('sends ISK in Stripe’s two decimals and settles the webhook in krónur', async () => {
    const { shop, itemId } = await storeIn('krona-shop', 'ISK', 5_000);
    const totals = await bound(shop, itemId, 'IS');
    expect(totals).toMatchObject({ currency: 'ISK', taxInCents: 0, totalInCents: 5_000 });
    const handoff = await paymentSession(totals.token);
    expect(fake.requests.map((request) => request.form.get('amount'))).toEqual(['500000']);

    await paySignedByStripe(handoff.intentId, 500_000, 'ISK');
    const order = await shop.call('owner', 'GET', `/merchant/orders/${handoff.orderId}`);
    expect(await order.json()).toMatchObject({ paymentStatus: 'PAID', totalInCents: 5_000 });
  });
});
