/**
 * The built client (dist/, as published) against the real gateway, in-process on an isolated
 * test database (the embedded one, or PostgreSQL with TEST_DATABASE_URL), as the gateway's own
 * tests run it.
 */
import { createHarness, type Harness } from '@commerce/gateway/test/support/harness.ts';
import { createRoleFixture, type RoleFixture } from '@commerce/gateway/test/support/roles.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommerceApiError,
  type CommerceClient,
  createCommerceClient,
  ERROR_CODES,
  hostedCheckoutUrl,
  newIdempotencyKey,
  paginate,
  unwrap,
} from '../dist/index.js';

const NOW = '2026-07-01T08:00:00Z';

let h: Harness;
let shop: RoleFixture;
/** Every request the clients sent, in order, as the gateway received it. */
let sent: {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number;
  retryAfter: string | null;
}[];

/** The gateway's own handler as the client's fetch: a real request through every middleware. */
const gatewayFetch = async (request: Request): Promise<Response> => {
  const key = request.headers.get('x-idempotency-key');
  const response = await h.app.request(request);
  sent.push({
    method: request.method,
    path: new URL(request.url).pathname,
    idempotencyKey: key,
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
  });
  return response;
};

const BASE_URL = 'http://gateway.test/api/v1';
const merchant = (fetch = gatewayFetch): CommerceClient =>
  createCommerceClient({ baseUrl: BASE_URL, organization: shop.slug, token: shop.users.owner.token, fetch });
const storefront = (): CommerceClient =>
  createCommerceClient({ baseUrl: BASE_URL, organization: shop.slug, fetch: gatewayFetch });

beforeAll(async () => {
  h = await createHarness({
    // One sign-in request per email per hour: the second request of an email is a 429 however
    // slow the machine (no test waits for real: the clients' sleep is injected).
    env: { RATE_LIMIT_SIGN_IN_REQUESTS_PER_EMAIL: '1', RATE_LIMIT_SIGN_IN_WINDOW_SECONDS: '3600' },
  });
  h.clock.set(NOW);
  shop = await createRoleFixture(h, 'client-shop', ['bookings:manage']);
}, 120_000);
afterAll(async () => {
  await h.close();
});

describe('catalog', () => {
  it('creates items as the merchant, reads them as a storefront, pages through them, and types a 404', async () => {
    sent = [];
    const api = merchant();
    for (const slug of ['lamp', 'chair', 'desk']) {
      const item = await unwrap(
        api.POST('/merchant/items', {
          body: { slug, name: `The ${slug}`, type: 'SALE', status: 'ACTIVE', priceInCents: 1500 },
        }),
      );
      expect(item.slug).toBe(slug);
    }
    // An item create does not read an idempotency key, so the client sends none.
    expect(sent.map((request) => request.idempotencyKey)).toEqual([null, null, null]);

    const store = storefront();
    const lamp = await unwrap(store.GET('/public/items/{slug}', { params: { path: { slug: 'lamp' } } }));
    expect(lamp).toMatchObject({ slug: 'lamp', name: 'The lamp', priceInCents: 1500 });

    const pages: string[] = [];
    const slugs: string[] = [];
    for await (const item of paginate((cursor) => {
      pages.push(cursor ?? 'first');
      return api.GET('/merchant/items', { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } });
    }))
      slugs.push(item.slug);
    expect(slugs.sort()).toEqual(['chair', 'desk', 'lamp']);
    expect(pages.length).toBeGreaterThanOrEqual(2);

    const missing = await unwrap(
      store.GET('/public/items/{slug}', { params: { path: { slug: 'no-such-item' } } }),
    ).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(CommerceApiError);
    const error = missing as CommerceApiError;
    expect(error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', status: 404 });
    expect(ERROR_CODES).toContain(error.code);
    expect(error.requestId).toMatch(/^req_/);
  });
});

describe('checkout', () => {
  it('opens a checkout session, hands off to the hosted page and pays with the sandbox test card', async () => {
    const api = merchant();
    const item = await unwrap(
      api.POST('/merchant/items', {
        body: { slug: 'poster', name: 'Poster', type: 'SALE', status: 'ACTIVE', priceInCents: 2000 },
      }),
    );
    const zone = await unwrap(
      api.POST('/merchant/shipping/zones', { body: { name: 'Europe', countries: ['DE'] } }),
    );
    await unwrap(
      api.POST('/merchant/shipping/zones/{id}/rates', {
        params: { path: { id: zone.id } },
        body: { name: 'Standard', priceInCents: 500 },
      }),
    );

    const store = storefront();
    const session = await unwrap(
      store.POST('/public/checkout/sessions', {
        body: {
          lines: [{ itemId: item.id, quantity: 2 }],
          email: 'grace@example.com',
          customerName: 'Grace Hopper',
          shippingCountry: 'DE',
        },
      }),
    );
    expect(session.checkoutToken).toMatch(/^c1_/);
    expect(hostedCheckoutUrl('https://shop.example/hosted/{orgSlug}', shop.slug, session.checkoutToken)).toBe(
      `https://shop.example/hosted/client-shop/checkout/${session.checkoutToken}`,
    );

    // What the hosted page does: bind, start the payment, pay with the sandbox's test card.
    const token = session.checkoutToken;
    await unwrap(
      store.POST('/public/checkout/sessions/{token}/bind', { params: { path: { token } }, body: {} }),
    );
    const payment = await unwrap(
      store.POST('/public/checkout/sessions/{token}/payment-session', {
        params: { path: { token } },
      }),
    );
    const outcome = await unwrap(
      store.POST('/public/sandbox-payments/confirm', {
        body: {
          clientSecret: payment.clientSecret,
          card: { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' },
        },
      }),
    );
    expect(outcome).toEqual({ outcome: 'SUCCEEDED', declineCode: null });
    const orderId = payment.orderId;
    if (orderId === null) throw new Error('payment-session placed no order');

    const paid = await unwrap(
      store.GET('/public/checkout/sessions/{token}', { params: { path: { token } } }),
    );
    expect(paid).toMatchObject({ status: 'COMPLETED', paymentStatus: 'PAID', orderId });
    const order = await unwrap(api.GET('/merchant/orders/{id}', { params: { path: { id: orderId } } }));
    expect(order).toMatchObject({ paymentStatus: 'PAID', totalInCents: payment.amountInCents });
  });
});

describe('idempotent retry', () => {
  it('sends a merchant write again with the same key after a lost answer, and the gateway carries it out once', async () => {
    const api = merchant();
    const resource = await unwrap(
      api.POST('/merchant/booking-resources', { body: { name: 'Room', kind: 'SPACE', capacity: 1 } }),
    );
    const daily = [{ start: '08:00', end: '20:00' }];
    const service = await unwrap(
      api.POST('/merchant/booking-services', {
        body: {
          slug: 'room',
          name: 'Room',
          status: 'ACTIVE',
          periodMode: 'FIXED_DURATION',
          timezone: 'UTC',
          durations: { choicesMinutes: [60], startIntervalMinutes: 30 },
          availability: {
            weeklyHours: {
              MON: daily,
              TUE: daily,
              WED: daily,
              THU: daily,
              FRI: daily,
              SAT: daily,
              SUN: daily,
            },
          },
          requirements: [
            { name: 'Room', resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } },
          ],
          pricing: { basis: 'FLAT', amountInCents: 3000 },
        },
      }),
    );

    // The first answer is lost on the way back (the connection drops after the gateway committed).
    sent = [];
    let dropped = 0;
    const losingFetch = async (request: Request) => {
      const response = await gatewayFetch(request);
      if (request.method === 'POST' && dropped === 0) {
        dropped += 1;
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    };
    const flaky = createCommerceClient({
      baseUrl: BASE_URL,
      organization: shop.slug,
      token: shop.users.owner.token,
      fetch: losingFetch,
      sleep: async () => {},
    });
    // The route requires the key (the types ask for it): derived from what the booking is for in
    // a real integration, random here.
    const key = newIdempotencyKey();
    const { data: booking, response } = await flaky.POST('/merchant/bookings', {
      params: { header: { 'x-idempotency-key': key } },
      body: {
        serviceId: service.id,
        startsAt: '2026-07-10T10:00:00Z',
        endsAt: '2026-07-10T11:00:00Z',
        quantity: 1,
        customer: { name: 'Ada', email: 'ada@example.test' },
      },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.idempotencyKey).toBe(key);
    expect(sent[1]!.idempotencyKey).toBe(key);

    const bookings = [];
    for await (const listed of paginate((cursor) =>
      api.GET('/merchant/bookings', { params: { query: cursor ? { cursor } : {} } }),
    ))
      bookings.push(listed);
    expect(bookings.map((listed) => listed.id)).toEqual([booking!.id]);
  });
});

describe('a write that ignores the key', () => {
  it('is not sent again after a lost answer: one item exists and the caller gets the failure', async () => {
    sent = [];
    let dropped = 0;
    const flaky = merchant(async (request) => {
      const response = await gatewayFetch(request);
      if (dropped++ === 0) throw new TypeError('fetch failed: connection reset');
      return response;
    });
    await expect(
      flaky.POST('/merchant/items', {
        body: { slug: 'once', name: 'Once', type: 'SALE', status: 'ACTIVE', priceInCents: 100 },
      }),
    ).rejects.toThrow('connection reset');
    expect(sent.map((request) => request.method)).toEqual(['POST']);
    const slugs: string[] = [];
    for await (const item of paginate((cursor) =>
      merchant().GET('/merchant/items', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }),
    ))
      slugs.push(item.slug);
    expect(slugs.filter((slug) => slug === 'once')).toEqual(['once']);
  });
});

describe('rate limit', () => {
  it('waits out a 429 for its Retry-After and sends the request again', async () => {
    sent = [];
    const waits: number[] = [];
    const store = createCommerceClient({
      baseUrl: BASE_URL,
      organization: shop.slug,
      fetch: gatewayFetch,
      // The window is an hour: allow that wait, and record it rather than spend it.
      retry: { retries: 1, maxDelayMs: 3_600_000 },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const body = { email: 'limited@example.test' };
    await unwrap(store.POST('/public/customer/auth/request-link', { body }));
    const again = await store.POST('/public/customer/auth/request-link', { body });
    // The 429 was sent again (a rate-limited request did nothing), after exactly the wait the
    // gateway asked for; the hour has not passed, so the resend is refused too and goes back.
    expect(sent.map((request) => request.status)).toEqual([200, 429, 429]);
    const asked = Number(sent[1]!.retryAfter);
    expect(asked).toBeGreaterThan(3500);
    expect(asked).toBeLessThanOrEqual(3600);
    expect(waits).toEqual([asked * 1000]);
    expect(again.response.status).toBe(429);
    // request-link reads no idempotency key: none is sent.
    expect(sent.map((request) => request.idempotencyKey)).toEqual([null, null, null]);
  });

  it('returns the 429 as a typed error when the server asks for a longer wait than the client allows', async () => {
    const store = createCommerceClient({
      baseUrl: BASE_URL,
      organization: shop.slug,
      fetch: gatewayFetch,
      retry: { maxDelayMs: 500 },
      sleep: async () => {
        throw new Error('no wait expected');
      },
    });
    const body = { email: 'impatient@example.test' };
    await unwrap(store.POST('/public/customer/auth/request-link', { body }));
    const error = await unwrap(store.POST('/public/customer/auth/request-link', { body })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CommerceApiError);
    expect(error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429 });
    expect((error as CommerceApiError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });
});
