import { loadConfig } from '@commerce/core';
import { queueAbandonedCartEmails } from '@commerce/orders';
import { createPaymentEventBody, signWebhookPayload } from '@commerce/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created, createItem, createShippingRate, createVariant } from '../support/catalog-fixture.ts';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

interface SessionBody {
  id: string;
  status: string;
  checkoutToken?: string;
  lines: {
    itemId: string;
    variantId: string | null;
    name: string;
    quantity: number;
    unitPriceInCents: number;
  }[];
  shippingOptions: { id: string; name: string; priceInCents: number }[];
  shippingRateId: string | null;
  subtotalInCents: number;
  shippingInCents: number;
  taxInCents: number;
  totalInCents: number;
  currency: string;
  orderId: string | null;
}

const ENV = { TAX_PROVIDER: 'sandbox' };
// The harness's configuration: the same webhook secret.
const config = loadConfig({ NODE_ENV: 'test', ...ENV });

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let itemId: string;
let variantId: string;
let rateId: string;

beforeAll(async () => {
  h = await createHarness({ env: ENV });
  shop = await createRoleFixture(h, 'checkout-shop');
  other = await createRoleFixture(h, 'checkout-other');
  itemId = await createItem(shop, {
    slug: 'last-lamp',
    name: 'Lamp',
    type: 'SALE',
    status: 'ACTIVE',
    priceInCents: 9900,
  });
  variantId = await createVariant(shop, itemId, { name: 'Brass', priceInCents: 2500, inventoryQuantity: 1 });
  rateId = await createShippingRate(shop, { countries: ['DE'], priceInCents: 500 });
});

afterAll(async () => {
  await h.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  h.app.request(`/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const asShop = { 'x-organization-slug': 'checkout-shop' };
const steps = (token: string) => `/public/checkout/sessions/${token}`;

async function openSession(quantity = 1): Promise<SessionBody & { checkoutToken: string }> {
  const response = await post(
    '/public/checkout/sessions',
    { lines: [{ itemId, variantId, quantity }], email: 'grace@example.com', customerName: 'Grace Hopper' },
    asShop,
  );
  return created(response, 'session');
}

describe('checkout over HTTP', () => {
  it('runs create → reprice → bind → payment-session → signed webhook to an order the merchant sees PAID', async () => {
    const session = await openSession();
    expect(session.checkoutToken).toMatch(/^c1_/);
    expect(session).toMatchObject({ status: 'OPEN', subtotalInCents: 2500, currency: 'USD' });
    expect(session.lines[0]).toMatchObject({ name: 'Lamp / Brass', unitPriceInCents: 2500 });

    const repriced = await post(`${steps(session.checkoutToken)}/reprice`, { shippingCountry: 'de' }, asShop);
    expect(repriced.status).toBe(200);
    const quote = (await repriced.json()) as SessionBody;
    expect(quote.shippingOptions.map((option) => option.id)).toEqual([rateId]);
    expect(quote).toMatchObject({ shippingRateId: rateId, shippingInCents: 500, totalInCents: 3000 });

    const bound = await post(`${steps(session.checkoutToken)}/bind`, { shippingRateId: rateId }, asShop);
    expect(bound.status).toBe(200);
    const unplaced = await h.app.request(`/api/v1${steps(session.checkoutToken)}`, { headers: asShop });
    expect(await unplaced.json()).toMatchObject({ orderId: null, orderNumber: null, orderReference: null });
    // 19 % (sandbox rate for DE) of goods and shipping.
    expect(await bound.json()).toMatchObject({
      status: 'BOUND',
      subtotalInCents: 2500,
      shippingInCents: 500,
      taxInCents: 570,
      totalInCents: 3570,
      currency: 'USD',
    });

    // Token-only: no tenant header.
    const paying = await post(`${steps(session.checkoutToken)}/payment-session`, {});
    expect(paying.status).toBe(200);
    const handoff = (await paying.json()) as {
      publishableKey: string;
      clientSecret: string;
      orderId: string;
      amountInCents: number;
    };
    expect(handoff.publishableKey).toMatch(/^pk_/);
    expect(handoff.amountInCents).toBe(3570);
    const [intentId] = handoff.clientSecret.split('_secret_');
    const again = await post(
      `${steps(session.checkoutToken)}/payment-session`,
      {},
      {
        'x-idempotency-key': 'retry-0123456789abcdef',
      },
    );
    expect(((await again.json()) as { clientSecret: string }).clientSecret).toBe(handoff.clientSecret);
    const replayed = await post(
      `${steps(session.checkoutToken)}/payment-session`,
      {},
      {
        'x-idempotency-key': 'retry-0123456789abcdef',
      },
    );
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replayed.json()) as { clientSecret: string }).clientSecret).toBe(handoff.clientSecret);

    const awaiting = await shop.call('owner', 'GET', `/merchant/orders/${handoff.orderId}`);
    expect(await awaiting.json()).toMatchObject({ status: 'PENDING', paymentStatus: 'AWAITING_PAYMENT' });

    // The processor's signed event through the webhook route; a bad signature changes nothing.
    const body = createPaymentEventBody({
      type: 'payment_intent.succeeded',
      intentId: intentId!,
      amountInCents: 3570,
      currency: 'USD',
      createdAt: h.clock.now(),
    });
    const webhook = (signature: string) =>
      h.app.request('/api/v1/webhooks/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body,
      });
    const forged = await webhook(signWebhookPayload('whsec_not_the_secret', body, h.clock.now()));
    expect(forged.status).toBe(400);
    const stillAwaiting = await shop.call('owner', 'GET', `/merchant/orders/${handoff.orderId}`);
    expect(await stillAwaiting.json()).toMatchObject({ paymentStatus: 'AWAITING_PAYMENT' });
    const signature = signWebhookPayload(config.payments.webhookSecret, body, h.clock.now());
    expect((await webhook(signature)).status).toBe(200);
    // A replay of the same event is a 200 no-op.
    expect((await webhook(signature)).status).toBe(200);

    const paid = await shop.call('owner', 'GET', `/merchant/orders/${handoff.orderId}`);
    const paidOrder = (await paid.json()) as { orderNumber: number; orderReference: string };
    expect(paidOrder).toMatchObject({
      status: 'PENDING',
      paymentStatus: 'PAID',
      totalInCents: 3570,
      taxInCents: 570,
      shippingInCents: 500,
    });
    // The session read names the order as the shopper is shown it (its number), for the confirmation.
    const confirmed = await h.app.request(`/api/v1${steps(session.checkoutToken)}`, { headers: asShop });
    expect(await confirmed.json()).toMatchObject({
      orderId: handoff.orderId,
      orderNumber: paidOrder.orderNumber,
      orderReference: paidOrder.orderReference,
      paymentStatus: 'PAID',
    });
    const variant = await shop.call('owner', 'GET', `/merchant/items/${itemId}/variants/${variantId}`);
    expect(((await variant.json()) as { inventoryQuantity: number }).inventoryQuantity).toBe(0);

    // The session is done: no step applies any more.
    await expectError(
      await post(`${steps(session.checkoutToken)}/bind`, {}, asShop),
      409,
      'INVALID_STATE_TRANSITION',
    );
  });

  it('refuses a second checkout of the sold-out unit with 409 INSUFFICIENT_STOCK', async () => {
    const session = await openSession();
    await post(`${steps(session.checkoutToken)}/reprice`, { shippingCountry: 'DE' }, asShop);
    const error = await expectError(
      await post(`${steps(session.checkoutToken)}/bind`, {}, asShop),
      409,
      'INSUFFICIENT_STOCK',
    );
    expect(error.details).toEqual({
      shortages: [{ path: 'lines.0', itemId, variantId, requestedQuantity: 1 }],
    });
  });

  it('answers 409 to confirm-free on a positive total and to payment-session before bind', async () => {
    await shop.call('owner', 'PATCH', `/merchant/items/${itemId}/variants/${variantId}`, {
      inventoryQuantity: 5,
    });
    const session = await openSession();
    await expectError(
      await post(`${steps(session.checkoutToken)}/payment-session`, {}),
      409,
      'INVALID_STATE_TRANSITION',
    );
    await post(`${steps(session.checkoutToken)}/reprice`, { shippingCountry: 'DE' }, asShop);
    await post(`${steps(session.checkoutToken)}/bind`, {}, asShop);
    await expectError(
      await post(`${steps(session.checkoutToken)}/confirm-free`, {}, asShop),
      409,
      'INVALID_STATE_TRANSITION',
    );
    // An idempotency key of another session's payment is refused, and changes nothing here.
    await expectError(
      await post(
        `${steps(session.checkoutToken)}/payment-session`,
        {},
        {
          'x-idempotency-key': 'retry-0123456789abcdef',
        },
      ),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('takes no prices from the client and needs the tenant header to create', async () => {
    await expectError(
      await post(
        '/public/checkout/sessions',
        { lines: [{ itemId, variantId, quantity: 1, unitPriceInCents: 1 }] },
        asShop,
      ),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await post('/public/checkout/sessions', { lines: [{ itemId, variantId, quantity: 1 }] }),
      400,
      'TENANT_REQUIRED',
    );
  });

  it('answers one neutral 404 for unknown, malformed and other stores’ tokens', async () => {
    const session = await openSession();
    const otherStore = { 'x-organization-slug': other.slug };
    for (const token of ['c1_unknown', `c1_${'x'.repeat(43)}`]) {
      await expectError(await post(`${steps(token)}/reprice`, {}, asShop), 404, 'RESOURCE_NOT_FOUND');
      await expectError(await post(`${steps(token)}/payment-session`, {}), 404, 'RESOURCE_NOT_FOUND');
    }
    await expectError(
      await post(`${steps(session.checkoutToken)}/bind`, {}, otherStore),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await post(`${steps(session.checkoutToken)}/payment-session`, {}, { 'x-idempotency-key': 'short' }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('documents every checkout route with its body in the OpenAPI document', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, { post?: { requestBody?: unknown; responses: Record<string, unknown> } }>;
    };
    const expected: [string, string][] = [
      ['/public/checkout/sessions', '201'],
      ['/public/checkout/sessions/{token}/reprice', '200'],
      ['/public/checkout/sessions/{token}/bind', '200'],
      ['/public/checkout/sessions/{token}/confirm-free', '201'],
      ['/public/checkout/sessions/{token}/payment-session', '200'],
    ];
    for (const [path, status] of expected) {
      const operation = document.paths[path]?.post;
      expect(operation, path).toBeDefined();
      expect(operation!.responses[status], `${path} ${status}`).toBeDefined();
      expect(operation!.responses['409'] ?? operation!.responses['404'], path).toBeDefined();
    }
    expect(document.paths['/public/checkout/sessions']!.post!.requestBody).toBeDefined();
    expect(document.paths['/public/checkout/sessions/{token}/reprice']!.post!.requestBody).toBeDefined();
  });

  it('stops abandoned-cart reminders through the token of a reminder’s link', async () => {
    const session = await openSession();
    h.clock.advance(2 * 60 * 60_000);
    await queueAbandonedCartEmails(h.database.db, {
      at: h.clock.now(),
      delayMinutes: 60,
      email: { emailFrom: config.email.from, linkBase: config.hostedCheckoutUrl },
    });
    const queued = await h.database.db
      .selectFrom('outbox')
      .select(['metadata', 'payload'])
      .where('organization_id', '=', shop.organizationId)
      .execute();
    const reminder = queued.find(
      (row) => (row.metadata as { checkoutSessionId?: string }).checkoutSessionId === session.id,
    )!;
    const token = /\/cart\/reminders\/unsubscribe\?token=(u1_[A-Za-z0-9_-]{43})/.exec(
      JSON.stringify(reminder.payload),
    )![1]!;
    await expectError(
      await post('/public/checkout/reminders/unsubscribe', { token: 'u1_unknown' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    const done = await post('/public/checkout/reminders/unsubscribe', { token });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({
      status: 'UNSUBSCRIBED',
      subscriptionType: 'ABANDONED_CART_RECOVERY',
    });
    const optedOut = await h.database.db
      .selectFrom('abandoned_cart_opt_outs')
      .select('email')
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(optedOut.map((row) => row.email)).toEqual(['grace@example.com']);
  });
});
