import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created, createItem, createShippingRate } from '../support/catalog-fixture.ts';
import { createHarness, expectError, expectJson, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * The backend of the hosted app: which store a link's token names, the checkout session
 * read its pages poll, and the sandbox processor's test-card confirmation.
 */

let h: Harness;
let shop: RoleFixture;
let itemId: string;
let _freeItemId: string;
let otherItemId: string;

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'hosted-shop');
  const other = await createRoleFixture(h, 'hosted-other');
  itemId = await createItem(shop, {
    slug: 'mug',
    name: 'Mug',
    type: 'SALE',
    status: 'ACTIVE',
    priceInCents: 1200,
  });
  _freeItemId = await createItem(shop, {
    slug: 'sticker',
    name: 'Sticker',
    type: 'SERVICE',
    status: 'ACTIVE',
    priceInCents: 0,
  });
  otherItemId = await createItem(other, {
    slug: 'mug',
    name: 'Other mug',
    type: 'SALE',
    status: 'ACTIVE',
    priceInCents: 900,
  });
  await createShippingRate(shop, { countries: ['US'], priceInCents: 300 });
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
const get = (path: string, headers: Record<string, string> = {}) =>
  h.app.request(`/api/v1${path}`, { headers });
const as = (slug: string) => ({ 'x-organization-slug': slug });

interface Session {
  status: string;
  checkoutToken: string;
  totalInCents: number;
  orderId: string | null;
  paymentStatus: string | null;
  lines: { name: string }[];
}

async function openSession(slug = 'hosted-shop', lines = [{ itemId, quantity: 1 }]): Promise<Session> {
  return created<Session>(
    await post(
      '/public/checkout/sessions',
      { lines, email: 'ada@example.com', customerName: 'Ada', shippingCountry: 'US' },
      as(slug),
    ),
    'session',
  );
}

/** A bound session with a sandbox payment started: its token and the payment's client secret. */
async function startPayment(): Promise<{ token: string; clientSecret: string }> {
  const session = await openSession();
  await expectJson(
    await post(`/public/checkout/sessions/${session.checkoutToken}/bind`, {}, as('hosted-shop')),
    200,
  );
  const paying = await expectJson<{ clientSecret: string }>(
    await post(`/public/checkout/sessions/${session.checkoutToken}/payment-session`, {}),
    200,
  );
  return { token: session.checkoutToken, clientSecret: paying.clientSecret };
}

const card = (number: string, expiry = '12/40') => ({ number, expiry, cvc: '123' });

describe('link tokens name their store', () => {
  it('resolves a checkout token and an order-status token without a tenant header', async () => {
    const session = await openSession();
    expect(
      await expectJson(await post('/public/link-tokens/resolve', { token: session.checkoutToken }), 200),
    ).toEqual({
      orgSlug: 'hosted-shop',
    });
    const order = await created<{ orderStatusToken: string }>(
      await post(
        '/public/orders',
        {
          customerName: 'Ada',
          customerEmail: 'ada@example.com',
          items: [{ itemId, name: 'Mug', quantity: 1, unitPriceInCents: 1200 }],
        },
        as('hosted-shop'),
      ),
      'order',
    );
    expect(
      await expectJson(await post('/public/link-tokens/resolve', { token: order.orderStatusToken }), 200),
    ).toEqual({ orgSlug: 'hosted-shop' });
  });

  it('resolves a sign-in link token read from the email', async () => {
    const requested = await post(
      '/public/customer/auth/request-link',
      { email: 'link@example.com' },
      as('hosted-shop'),
    );
    expect(requested.status).toBeLessThan(300);
    const rows = await h.database.db
      .selectFrom('outbox')
      .select(['payload', 'metadata'])
      .orderBy('id', 'desc')
      .execute();
    const row = rows.find(
      (candidate) => (candidate.metadata as { templateType?: string }).templateType === 'CUSTOMER_AUTH',
    );
    const token = /token=(l1_[A-Za-z0-9_-]{43})/.exec(
      (row?.payload as { text?: string } | undefined)?.text ?? '',
    )?.[1];
    expect(token).toBeDefined();
    expect(await expectJson(await post('/public/link-tokens/resolve', { token }), 200)).toEqual({
      orgSlug: 'hosted-shop',
    });
  });

  it('answers one neutral 404 for unknown, malformed and hostile tokens', async () => {
    for (const token of [`c1_${'a'.repeat(43)}`, `o1_${'b'.repeat(43)}`, 'c1_short', 'x1_whatever'])
      await expectError(await post('/public/link-tokens/resolve', { token }), 404, 'RESOURCE_NOT_FOUND');
    await expectError(
      await post('/public/link-tokens/resolve', { token: 'x'.repeat(101) }),
      400,
      'VALIDATION_FAILED',
    );
    // Control characters are refused at the edge, before any lookup.
    await expectError(
      await post('/public/link-tokens/resolve', { token: `l1_${'\u0000'.repeat(43)}` }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('sign-in over the first-party /trpc surface', () => {
  it('sets the HttpOnly cookie and never hands the session token to page script', async () => {
    const email = 'cookie@example.com';
    expect(
      (await post('/public/customer/auth/request-otp', { email }, as('hosted-shop'))).status,
    ).toBeLessThan(300);
    const rows = await h.database.db
      .selectFrom('outbox')
      .select(['payload', 'metadata'])
      .orderBy('id', 'desc')
      .execute();
    const mail = rows.find((row) => (row.payload as { to?: string }).to === email);
    const code = /\b(\d{6})\b/.exec((mail?.payload as { text?: string } | undefined)?.text ?? '')?.[1];
    const verified = await h.app.request('/trpc/public.customerAuth.verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...as('hosted-shop') },
      body: JSON.stringify({ email, code }),
    });
    expect(verified.status).toBe(200);
    const data = ((await verified.json()) as { result: { data: Record<string, unknown> } }).result.data;
    expect(data.customerId).toMatch(/^cus_/);
    expect(data).not.toHaveProperty('sessionToken');
    expect(verified.headers.get('set-cookie')).toMatch(/^__Host-session=s1_[A-Za-z0-9_-]{43};.*HttpOnly/);
  });
});

describe('GET /public/checkout/sessions/{token}', () => {
  it('reads the session as the steps answer it, changing nothing', async () => {
    const session = await openSession();
    const read = await expectJson<Session>(
      await get(`/public/checkout/sessions/${session.checkoutToken}`, as('hosted-shop')),
      200,
    );
    expect(read).toMatchObject({
      status: 'OPEN',
      totalInCents: 1500,
      lines: [{ name: 'Mug' }],
      paymentStatus: null,
    });
    expect(read).not.toHaveProperty('checkoutToken');
  });

  it('is the neutral 404 for another store and an unknown token', async () => {
    const session = await openSession('hosted-other', [{ itemId: otherItemId, quantity: 1 }]);
    await expectError(
      await get(`/public/checkout/sessions/${session.checkoutToken}`, as('hosted-shop')),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await get(`/public/checkout/sessions/c1_${'z'.repeat(43)}`, as('hosted-shop')),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});

describe('sandbox test-card confirmation', () => {
  it('settles a success through the webhook path: the session reads COMPLETED and PAID', async () => {
    const { token, clientSecret } = await startPayment();
    const result = await expectJson(
      await post(
        '/public/sandbox-payments/confirm',
        { clientSecret, card: card('4242 4242 4242 4242') },
        as('hosted-shop'),
      ),
      200,
    );
    expect(result).toEqual({ outcome: 'SUCCEEDED', declineCode: null });
    const read = await expectJson<Session>(
      await get(`/public/checkout/sessions/${token}`, as('hosted-shop')),
      200,
    );
    expect(read).toMatchObject({ status: 'COMPLETED', paymentStatus: 'PAID' });
    const order = await expectJson<{ paymentStatus: string }>(
      await shop.call('owner', 'GET', `/merchant/orders/${read.orderId}`),
      200,
    );
    expect(order.paymentStatus).toBe('PAID');
    // Paid: the same secret cannot pay again.
    const again = await expectError(
      await post(
        '/public/sandbox-payments/confirm',
        { clientSecret, card: card('4242424242424242') },
        as('hosted-shop'),
      ),
      409,
      'INVALID_STATE_TRANSITION',
    );
    expect(again.details).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('declines a declining card: the order is FAILED, and payment-session re-arms it for another card', async () => {
    const { token, clientSecret } = await startPayment();
    const decline = async (number: string, declineCode: string) => {
      expect(
        await expectJson(
          await post(
            '/public/sandbox-payments/confirm',
            { clientSecret, card: card(number) },
            as('hosted-shop'),
          ),
          200,
        ),
      ).toEqual({ outcome: 'DECLINED', declineCode });
      const failed = await expectJson<Session>(
        await get(`/public/checkout/sessions/${token}`, as('hosted-shop')),
        200,
      );
      expect(failed).toMatchObject({ status: 'PAYMENT_FAILED', paymentStatus: 'FAILED' });
      // A failed payment is not pending until the page starts the payment again.
      await expectError(
        await post(
          '/public/sandbox-payments/confirm',
          { clientSecret, card: card('4242424242424242') },
          as('hosted-shop'),
        ),
        409,
        'INVALID_STATE_TRANSITION',
      );
      // As with Stripe, the same intent is armed again.
      const again = await expectJson<{ clientSecret: string }>(
        await post(`/public/checkout/sessions/${token}/payment-session`, {}),
        200,
      );
      expect(again.clientSecret).toBe(clientSecret);
      return again;
    };
    await decline('4000000000000002', 'generic_decline');
    // A second decline after re-arming is a new event, not a replay of the first.
    const retry = await decline('4000 0000 0000 9995', 'insufficient_funds');
    await expectJson(
      await post(
        '/public/sandbox-payments/confirm',
        { clientSecret: retry.clientSecret, card: card('4242424242424242') },
        as('hosted-shop'),
      ),
      200,
    );
    const paid = await expectJson<Session>(
      await get(`/public/checkout/sessions/${token}`, as('hosted-shop')),
      200,
    );
    expect(paid).toMatchObject({ status: 'COMPLETED', paymentStatus: 'PAID' });
  });

  it('refuses real card numbers, past expiry, and another store’s or an unknown secret', async () => {
    const { clientSecret } = await startPayment();
    const bad = await expectError(
      await post(
        '/public/sandbox-payments/confirm',
        { clientSecret, card: card('5555555555554444') },
        as('hosted-shop'),
      ),
      400,
      'VALIDATION_FAILED',
    );
    expect(JSON.stringify(bad.details)).toContain('card.number');
    await expectError(
      await post(
        '/public/sandbox-payments/confirm',
        { clientSecret, card: card('4242424242424242', '01/20') },
        as('hosted-shop'),
      ),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await post(
        '/public/sandbox-payments/confirm',
        { clientSecret, card: card('4242424242424242') },
        as('hosted-other'),
      ),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await post(
        '/public/sandbox-payments/confirm',
        { clientSecret: `${clientSecret.slice(0, -4)}0000`, card: card('4242424242424242') },
        as('hosted-shop'),
      ),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('settles once when the form is submitted many times at once', async () => {
    const { token, clientSecret } = await startPayment();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(
          '/public/sandbox-payments/confirm',
          { clientSecret, card: card('4242424242424242') },
          as('hosted-shop'),
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    // Each answer is the card's outcome or the 409 of a payment already settled; never a 500.
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(statuses).toContain(200);
    const read = await expectJson<Session>(
      await get(`/public/checkout/sessions/${token}`, as('hosted-shop')),
      200,
    );
    expect(read.paymentStatus).toBe('PAID');
    const events = await h.database.db
      .selectFrom('payment_webhook_events')
      .select('event_id as id')
      .where('event_id', 'like', 'evt_sandbox_%')
      .execute();
    const attempt = await h.database.db
      .selectFrom('payment_attempts')
      .select('id')
      .where('order_id', '=', read.orderId)
      .executeTakeFirstOrThrow();
    expect(events.filter((event) => event.id.includes(attempt.id))).toHaveLength(1);
  });
});

describe('checkout shipping address', () => {
  const address = {
    name: ' Ada Lovelace ',
    line1: '1 Analytical Way',
    line2: '',
    city: 'Springfield',
    state: 'IL',
    postalCode: '62701',
    country: 'us',
  };
  const stored = {
    name: 'Ada Lovelace',
    line1: '1 Analytical Way',
    line2: null,
    city: 'Springfield',
    state: 'IL',
    postalCode: '62701',
    country: 'US',
    phone: null,
  };
  type WithAddress = Session & { shippingAddress: typeof stored | null; shippingCountry: string | null };

  it('keeps the address on the session, names the country by it, and copies it to the order', async () => {
    const session = await created<WithAddress>(
      await post(
        '/public/checkout/sessions',
        {
          lines: [{ itemId, quantity: 1 }],
          email: 'ada@example.com',
          customerName: 'Ada',
          shippingAddress: address,
        },
        as('hosted-shop'),
      ),
      'session',
    );
    expect(session).toMatchObject({ shippingAddress: stored, shippingCountry: 'US', totalInCents: 1500 });
    await expectJson(
      await post(`/public/checkout/sessions/${session.checkoutToken}/bind`, {}, as('hosted-shop')),
      200,
    );
    const paying = await expectJson<{ orderId: string }>(
      await post(`/public/checkout/sessions/${session.checkoutToken}/payment-session`, {}),
      200,
    );
    const order = await expectJson<{ shippingAddress: unknown }>(
      await shop.call('owner', 'GET', `/merchant/orders/${paying.orderId}`),
      200,
    );
    expect(order.shippingAddress).toEqual(stored);
  });

  it('replaces, clears and drops the address on reprice', async () => {
    const session = await openSession();
    const reprice = (body: unknown) =>
      post(`/public/checkout/sessions/${session.checkoutToken}/reprice`, body, as('hosted-shop'));
    const withAddress = await expectJson<WithAddress>(await reprice({ shippingAddress: address }), 200);
    expect(withAddress.shippingAddress).toEqual(stored);
    // Another field only: the address stays.
    expect(
      (await expectJson<WithAddress>(await reprice({ customerName: 'Ada L.' }), 200)).shippingAddress,
    ).toEqual(stored);
    // Another country: the address was for the old one.
    const moved = await expectJson<WithAddress>(await reprice({ shippingCountry: 'DE' }), 200);
    expect(moved).toMatchObject({ shippingCountry: 'DE', shippingAddress: null });
    await expectJson(await reprice({ shippingAddress: address }), 200);
    const cleared = await expectJson<WithAddress>(await reprice({ shippingAddress: null }), 200);
    expect(cleared).toMatchObject({ shippingCountry: 'US', shippingAddress: null });
  });

  it('refuses an address that disagrees with shippingCountry or breaks its limits', async () => {
    const create = (body: Record<string, unknown>) =>
      post('/public/checkout/sessions', { lines: [{ itemId, quantity: 1 }], ...body }, as('hosted-shop'));
    const mismatch = await expectError(
      await create({ shippingCountry: 'DE', shippingAddress: address }),
      400,
      'VALIDATION_FAILED',
    );
    expect(JSON.stringify(mismatch.details)).toContain('shippingCountry');
    for (const broken of [
      { ...address, line1: 'x'.repeat(301) },
      { ...address, name: '' },
      { ...address, country: 'USA' },
      { ...address, extra: true },
    ])
      await expectError(await create({ shippingAddress: broken }), 400, 'VALIDATION_FAILED');
  });
});
