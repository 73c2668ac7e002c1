import { loadConfig } from '@commerce/core';
import { createWebhookWorker } from '@commerce/notifications/webhooks';
import { createPaymentEventBody, signWebhookPayload } from '@commerce/payments';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { created, createItem, createShippingRate, createVariant } from '../support/catalog-fixture.ts';
import { createHarness, expectJson, type Harness } from '../support/harness.ts';
import { createGuestOrder } from '../support/orders.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

/** Events emitted by real flows through the API, delivered by the worker to a real receiver. */
const PAYMENT_SECRET = 'whsec_webhook_events_test';
const SLUG = 'webhook-events';

let h: Harness;
let shop: RoleFixture;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let secret: string;
let itemId: string;

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  h.app.request(`/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-organization-slug': SLUG, ...headers },
    body: JSON.stringify(body),
  });

const worker = () =>
  createWebhookWorker({
    db: h.database.db,
    signingKey: loadConfig({ NODE_ENV: 'test' }).webhooks.signingKey!,
    allowPrivateHosts: true,
    clock: h.clock,
  });

/** Delivers what is due and answers the events received since `from`, each verified with the secret. */
async function deliveredSince(from: number) {
  while ((await worker().runOnce()).claimed > 0);
  return receiver.received.slice(from).map((request) => {
    const event = new Webhook(secret).verify(request.body, request.headers) as {
      id: string;
      type: string;
      organizationSlug: string;
      data: Record<string, unknown>;
    };
    expect(request.headers['webhook-id']).toBe(event.id);
    expect(event.organizationSlug).toBe(SLUG);
    return event;
  });
}

beforeAll(async () => {
  h = await createHarness({ env: { PAYMENT_WEBHOOK_SECRET: PAYMENT_SECRET } });
  shop = await createRoleFixture(h, SLUG);
  receiver = await startWebhookReceiver();
  itemId = await createItem(shop, {
    slug: 'kettle',
    name: 'Kettle',
    type: 'SALE',
    status: 'ACTIVE',
    priceInCents: 4000,
  });
  const endpoint = await expectJson<{ secret: string }>(
    await shop.call('owner', 'POST', '/merchant/webhook-endpoints', {
      url: receiver.url,
      events: [
        'order.created',
        'order.paid',
        'order.cancelled',
        'fulfillment.shipped',
        'booking.confirmed',
        'booking.cancelled',
        'item.updated',
        'customer.created',
        'stock.low',
      ],
    }),
    201,
  );
  secret = endpoint.secret;
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});

let mark = 0;
beforeEach(async () => {
  await deliveredSince(0);
  mark = receiver.received.length;
});

describe('events from real flows', () => {
  it('item.updated: the item as the merchant reads it', async () => {
    const response = await shop.call('owner', 'PATCH', `/merchant/items/${itemId}`, { name: 'Steel kettle' });
    const read = await expectJson<Record<string, unknown>>(response, 200);
    const events = await deliveredSince(mark);
    expect(events.map((event) => event.type)).toEqual(['item.updated']);
    expect(events[0]!.data).toEqual(read);
  });

  it('order.created from a public order, and order.cancelled when the merchant cancels it; nothing unsubscribed', async () => {
    const order = await createGuestOrder(h, SLUG, [
      { itemId, name: 'Kettle', quantity: 1, unitPriceInCents: 4000 },
    ]);
    const read = await expectJson<Record<string, unknown>>(
      await shop.call('owner', 'GET', `/merchant/orders/${order.id}`),
      200,
    );
    let events = await deliveredSince(mark);
    expect(events.map((event) => event.type)).toEqual(['order.created']);
    expect(events[0]!.data).toMatchObject({ id: order.id, orderNumber: read.orderNumber, status: 'PENDING' });

    const cancelled = await shop.call('owner', 'PATCH', `/merchant/orders/${order.id}/status`, {
      status: 'CANCELLED',
    });
    expect(cancelled.status).toBe(200);
    events = await deliveredSince(mark + 1);
    expect(events.map((event) => [event.type, event.data.id, event.data.status])).toEqual([
      ['order.cancelled', order.id, 'CANCELLED'],
    ]);
  });

  it('order.created then order.paid through checkout and the payment webhook, in that order', async () => {
    const rateId = await createShippingRate(shop, { countries: ['DE'], priceInCents: 500 });
    const session = await created<{ checkoutToken: string }>(
      await post('/public/checkout/sessions', {
        lines: [{ itemId, quantity: 1 }],
        email: 'ada@example.com',
        customerName: 'Ada Lovelace',
      }),
      'session',
    );
    const steps = `/public/checkout/sessions/${session.checkoutToken}`;
    expect((await post(`${steps}/reprice`, { shippingCountry: 'DE' })).status).toBe(200);
    expect((await post(`${steps}/bind`, { shippingRateId: rateId })).status).toBe(200);
    const paying = await h.app.request(`/api/v1${steps}/payment-session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const handoff = await expectJson<{ clientSecret: string; orderId: string; amountInCents: number }>(
      paying,
      200,
    );
    const body = createPaymentEventBody({
      type: 'payment_intent.succeeded',
      intentId: handoff.clientSecret.split('_secret_')[0]!,
      amountInCents: handoff.amountInCents,
      currency: 'USD',
      createdAt: h.clock.now(),
    });
    const settled = await h.app.request('/api/v1/webhooks/payments', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signWebhookPayload(PAYMENT_SECRET, body, h.clock.now()),
      },
      body,
    });
    expect(settled.status).toBe(200);
    const events = await deliveredSince(mark);
    expect(events.map((event) => [event.type, event.data.id])).toEqual([
      ['order.created', handoff.orderId],
      ['order.paid', handoff.orderId],
    ]);
    expect(events[1]!.data).toMatchObject({ paymentStatus: 'PAID' });
  });

  it('fulfillment.shipped from a direct fulfillment', async () => {
    const order = await createGuestOrder(h, SLUG, [
      { itemId, name: 'Kettle', quantity: 2, unitPriceInCents: 4000 },
    ]);
    const read = await expectJson<{ items: { id: string }[] }>(
      await shop.call('owner', 'GET', `/merchant/orders/${order.id}`),
      200,
    );
    const shipped = await expectJson<{ fulfillment: { id: string } } & Record<string, unknown>>(
      await shop.call(
        'owner',
        'POST',
        `/merchant/commerce/orders/${order.id}/fulfillments`,
        { lines: [{ lineId: read.items[0]!.id, quantity: 1 }], notifyCustomer: false },
        { 'x-idempotency-key': 'webhook-events-ship-0001' },
      ),
      201,
    );
    const events = await deliveredSince(mark);
    expect(events.map((event) => event.type)).toEqual(['order.created', 'fulfillment.shipped']);
    const fulfillmentId = (shipped.fulfillment ?? shipped).id as string;
    expect(events[1]!.data).toMatchObject({ id: fulfillmentId, status: 'SHIPPED' });
  });

  /** Ships `quantity` of a variant through a guest order and a direct fulfillment (a stock decrement). */
  const ship = async (item: string, variantId: string, quantity: number, key: string) => {
    const order = await createGuestOrder(h, SLUG, [
      { itemId: item, variantId, name: 'Kettle', quantity, unitPriceInCents: 4000 },
    ]);
    const read = await expectJson<{ items: { id: string }[] }>(
      await shop.call('owner', 'GET', `/merchant/orders/${order.id}`),
      200,
    );
    const response = await shop.call(
      'owner',
      'POST',
      `/merchant/commerce/orders/${order.id}/fulfillments`,
      { lines: [{ lineId: read.items[0]!.id, quantity }], notifyCustomer: false },
      { 'x-idempotency-key': key },
    );
    expect(response.status).toBe(201);
  };
  const lowsSince = async (from: number) =>
    (await deliveredSince(from))
      .filter((event) => event.type === 'stock.low')
      .map((event) => [event.data.id, event.data.inventoryQuantity]);

  it('stock.low once when shipping takes a tracked variant to the store threshold (5), not again below it', async () => {
    const variantId = await createVariant(shop, itemId, {
      name: 'Blue',
      sku: 'KETTLE-BLUE',
      priceInCents: 4000,
      inventoryQuantity: 7,
    });
    await ship(itemId, variantId, 1, 'webhook-events-stock-0001'); // 7 → 6
    await ship(itemId, variantId, 2, 'webhook-events-stock-0002'); // 6 → 4: crosses 5
    await ship(itemId, variantId, 1, 'webhook-events-stock-0003'); // 4 → 3: already low
    expect(await lowsSince(mark)).toEqual([[variantId, 4]]);
  });

  it("stock.low at the item's own threshold over the store's; an item threshold cleared to null falls back to the store's", async () => {
    const settings = (lowStockThreshold: number | null) =>
      shop.call('owner', 'PATCH', '/merchant/settings', { notifications: { lowStockThreshold } });
    expect((await settings(8)).status).toBe(200);
    try {
      const item = await createItem(shop, {
        slug: 'kettle-pro',
        name: 'Kettle Pro',
        type: 'SALE',
        status: 'ACTIVE',
        priceInCents: 4000,
        lowStockThreshold: 2,
      });
      const first = await createVariant(shop, item, { name: 'Red', sku: 'PRO-RED', inventoryQuantity: 10 });
      await ship(item, first, 3, 'webhook-events-threshold-0001'); // 10 → 7: under the store's 8, above the item's 2
      await ship(item, first, 5, 'webhook-events-threshold-0002'); // 7 → 2: crosses the item's 2
      expect(await lowsSince(mark)).toEqual([[first, 2]]);

      const cleared = await shop.call('owner', 'PATCH', `/merchant/items/${item}`, {
        lowStockThreshold: null,
      });
      expect((await expectJson<{ lowStockThreshold: unknown }>(cleared, 200)).lowStockThreshold).toBeNull();
      const from = receiver.received.length;
      const second = await createVariant(shop, item, {
        name: 'Green',
        sku: 'PRO-GREEN',
        inventoryQuantity: 10,
      });
      await ship(item, second, 1, 'webhook-events-threshold-0003'); // 10 → 9
      await ship(item, second, 1, 'webhook-events-threshold-0004'); // 9 → 8: crosses the store's 8
      expect(await lowsSince(from)).toEqual([[second, 8]]);
    } finally {
      expect((await settings(null)).status).toBe(200);
    }
  });

  it('stock.low when the merchant sets the stock by hand from above the threshold to at or under it, once per crossing', async () => {
    const item = await createItem(shop, {
      slug: 'kettle-mini',
      name: 'Kettle Mini',
      type: 'SALE',
      status: 'ACTIVE',
      lowStockThreshold: 6,
    });
    const variantId = await createVariant(shop, item, { name: 'Mini', sku: 'MINI-1', inventoryQuantity: 9 });
    const setStock = async (inventoryQuantity: number | null) => {
      const response = await shop.call('owner', 'PATCH', `/merchant/items/${item}/variants/${variantId}`, {
        inventoryQuantity,
      });
      expect(response.status).toBe(200);
    };
    await setStock(6); // 9 → 6: crosses
    await setStock(4); // already low
    await setStock(12); // restocked above it
    await setStock(7); // still above
    await setStock(null); // untracked
    await setStock(3); // untracked → 3 is no crossing from above
    await setStock(20);
    await setStock(0); // 20 → 0: crosses again
    expect(await lowsSince(mark)).toEqual([
      [variantId, 6],
      [variantId, 0],
    ]);
  });

  it('booking.confirmed from a merchant booking, then booking.cancelled, in order', async () => {
    const resource = await expectJson<{ id: string }>(
      await shop.call('owner', 'POST', '/merchant/booking-resources', {
        name: 'Room',
        kind: 'SPACE',
        capacity: 2,
      }),
      201,
    );
    const daily = [{ start: '08:00', end: '20:00' }];
    const service = await expectJson<{ id: string }>(
      await shop.call('owner', 'POST', '/merchant/booking-services', {
        slug: 'room',
        name: 'Room',
        status: 'ACTIVE',
        periodMode: 'FIXED_DURATION',
        timezone: 'UTC',
        durations: { choicesMinutes: [60] },
        availability: {
          weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily, SAT: daily, SUN: daily },
        },
        requirements: [
          { name: 'Room', resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } },
        ],
        pricing: { basis: 'FLAT', amountInCents: 3000 },
      }),
      201,
    );
    const day = new Date(h.clock.now().getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
    const booking = await expectJson<{ id: string; status: string }>(
      await shop.call(
        'owner',
        'POST',
        '/merchant/bookings',
        {
          serviceId: service.id,
          startsAt: `${day}T10:00:00Z`,
          endsAt: `${day}T11:00:00Z`,
          quantity: 1,
          customer: { name: 'Ada', email: 'ada@example.test' },
        },
        { 'x-idempotency-key': 'webhook-events-booking-0001' },
      ),
      201,
    );
    expect(booking.status).toBe('CONFIRMED');
    const cancelled = await shop.call(
      'owner',
      'POST',
      `/merchant/bookings/${booking.id}/cancel`,
      { reason: 'double booked' },
      { 'x-idempotency-key': 'webhook-events-cancel-0001' },
    );
    expect(cancelled.status).toBe(200);
    const events = await deliveredSince(mark);
    expect(events.map((event) => [event.type, event.data.id, event.data.status])).toEqual([
      ['booking.confirmed', booking.id, 'CONFIRMED'],
      ['booking.cancelled', booking.id, 'CANCELLED'],
    ]);
  });

  it('customer.created at a first sign-in, and not at the next', async () => {
    const signIn = async () => {
      expect((await post('/public/customer/auth/request-otp', { email: 'grace@example.com' })).status).toBe(
        200,
      );
      const rows = await h.database.db
        .selectFrom('outbox')
        .select(['payload'])
        .where('organization_id', '=', shop.organizationId)
        .orderBy('id', 'desc')
        .execute();
      const text = rows
        .map((row) => row.payload as { to: string; text: string } | null)
        .find((payload) => payload?.to === 'grace@example.com')!.text;
      const code = /\b(\d{6})\b/.exec(text)![1]!;
      const response = await post('/public/customer/auth/verify', { email: 'grace@example.com', code });
      return expectJson<{ customerId: string }>(response, 200);
    };
    const first = await signIn();
    await signIn();
    const events = await deliveredSince(mark);
    expect(events.map((event) => [event.type, event.data.id, event.data.email])).toEqual([
      ['customer.created', first.customerId, 'grace@example.com'],
    ]);
  });
});
