import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../support/catalog-fixture.ts';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import {
  ACTORS,
  type Actor,
  createRoleFixture,
  expectedStatus,
  MEMBER_ACTORS,
  type RoleFixture,
} from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let itemId: string;
let otherItemId: string;

interface Order {
  id: string;
  orderReference: string | null;
  orderNumber: number;
  status: string;
  fulfillmentStatus: string;
  paymentStatus: string;
  currency: string;
  customerEmail: string;
  items: { type: string; itemId: string; quantity: number; unitPriceInCents: number; totalInCents: number }[];
  subtotalInCents: number;
  taxInCents: number;
  shippingInCents: number;
  totalInCents: number;
  salesRecordId?: string;
  notes?: string | null;
  orderStatusToken?: string;
}

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** An ACTIVE sale item named by its slug; its id. */
const newItem = (fixture: RoleFixture, slug: string): Promise<string> =>
  createItem(fixture, { slug, name: slug, type: 'SALE', status: 'ACTIVE' });

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'orders-shop', ['orders:operate']);
  other = await createRoleFixture(h, 'orders-other', ['orders:operate']);
  itemId = await newItem(shop, 'tee');
  otherItemId = await newItem(other, 'mug');
});
afterAll(async () => {
  await h.close();
});

const orderBody = (changes: Record<string, unknown> = {}) => ({
  customerName: 'Ada Lovelace',
  customerEmail: 'ada@example.com',
  items: [{ itemId, variantId: null, name: 'Tee', quantity: 2, unitPriceInCents: 1250 }],
  ...changes,
});

const publicCall = (
  slug: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) =>
  h.app.request(`/api/v1${path}`, {
    method,
    headers: {
      ...(slug ? { 'x-organization-slug': slug } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

/** An order placed through the public route, with notes the merchant wrote. */
async function placeOrder(
  fixture: RoleFixture = shop,
  changes: Record<string, unknown> = {},
): Promise<Order> {
  const body =
    fixture === shop
      ? orderBody(changes)
      : orderBody({
          items: [{ itemId: otherItemId, name: 'Mug', quantity: 1, unitPriceInCents: 900 }],
          ...changes,
        });
  return ok<Order>(await publicCall(fixture.slug, 'POST', '/public/orders', body), 201);
}

async function setPublicReads(fixture: RoleFixture, enabled: boolean): Promise<void> {
  await ok(
    await fixture.call('owner', 'PATCH', '/merchant/settings', {
      apiSettings: { publicOrderReadsEnabled: enabled },
    }),
    200,
  );
}

const auditActions = async (organizationId: string, targetId: string) =>
  (
    await h.database.db
      .selectFrom('audit_logs')
      .select(['action', 'metadata'])
      .where('organization_id', '=', organizationId)
      .where('target_id', '=', targetId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((row) => [row.action, row.metadata]);

const storedOrder = (id: string) =>
  h.database.db
    .selectFrom('orders')
    .select(['status', 'notes', 'fulfillment_status', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const OPERATORS: readonly Actor[] = ['owner', 'admin', 'staffWith'];
const denial = (status: number) => (status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');

describe('POST /public/orders', () => {
  for (const actor of ACTORS) {
    it(`creates the order with the spec totals for ${actor} (merchant credentials play no part)`, async () => {
      const response = await shop.call(actor, 'POST', '/public/orders', orderBody({ notes: 'ring twice' }));
      const order = await ok<Order>(response, 201);
      expect(order).toMatchObject({
        orderReference: expect.stringMatching(/^or1_[0-9a-f]{32}$/),
        status: 'PENDING',
        fulfillmentStatus: 'UNFULFILLED',
        paymentStatus: 'NOT_REQUIRED',
        currency: 'USD',
        subtotalInCents: 2500,
        taxInCents: 0,
        shippingInCents: 0,
        totalInCents: 2500,
        items: [{ type: 'PRODUCT', itemId, quantity: 2, unitPriceInCents: 1250, totalInCents: 2500 }],
        orderStatusToken: expect.stringMatching(/^o1_/),
      });
      expect(order).not.toHaveProperty('notes');
      expect((await storedOrder(order.id)).notes).toBe('ring twice');
    });
  }

  it('numbers orders sequentially and takes the currency from the store settings', async () => {
    const shopFixture = await createRoleFixture(h, 'orders-euro');
    const euroItem = await newItem(shopFixture, 'scarf');
    await ok(
      await shopFixture.call('owner', 'PATCH', '/merchant/settings', {
        checkoutSettings: { currency: 'EUR' },
      }),
      200,
    );
    const body = orderBody({
      items: [{ itemId: euroItem, name: 'Scarf', quantity: 1, unitPriceInCents: 4000 }],
    });
    const first = await ok<Order>(await publicCall(shopFixture.slug, 'POST', '/public/orders', body), 201);
    const second = await ok<Order>(await publicCall(shopFixture.slug, 'POST', '/public/orders', body), 201);
    expect([first.orderNumber, second.orderNumber]).toEqual([1, 2]);
    expect(first.currency).toBe('EUR');
    const outbox = await h.database.db
      .selectFrom('outbox')
      .select(['metadata', 'payload'])
      .where('organization_id', '=', shopFixture.organizationId)
      .orderBy('id')
      .execute();
    expect(outbox.map((row) => (row.metadata as { templateType: string }).templateType)).toEqual([
      'ORDER_CONFIRMATION',
      'ORDER_CONFIRMATION',
    ]);
    const text = (outbox[0]!.payload as { text: string }).text;
    // The default base holds `{orgSlug}`: the link names the store by its slug.
    expect(text).toContain(
      `http://localhost:3000/hosted/${shopFixture.slug}/order-status?token=${first.orderStatusToken}`,
    );
    expect(text).toContain('€40.00');
  });

  it('refuses bad bodies with 400 and the failing paths, writing nothing', async () => {
    const before = await h.database.db
      .selectFrom('orders')
      .select('id')
      .where('organization_id', '=', shop.organizationId)
      .execute();
    const cases: [Record<string, unknown>, string][] = [
      [orderBody({ items: [] }), 'items'],
      [orderBody({ customerName: 'x'.repeat(201) }), 'customerName'],
      [orderBody({ customerEmail: 'nope' }), 'customerEmail'],
      [orderBody({ customerPhone: '1'.repeat(51) }), 'customerPhone'],
      [orderBody({ notes: 'n'.repeat(2001) }), 'notes'],
      [orderBody({ items: [{ itemId, name: 'Tee', quantity: 0, unitPriceInCents: 1 }] }), 'items.0.quantity'],
      [
        orderBody({ items: [{ itemId: otherItemId, name: 'Mug', quantity: 1, unitPriceInCents: 1 }] }),
        'items.0.itemId',
      ],
      [
        orderBody({
          items: [{ itemId, variantId: 'var_nope', name: 'Tee', quantity: 1, unitPriceInCents: 1 }],
        }),
        'items.0.variantId',
      ],
    ];
    for (const [body, path] of cases) {
      const error = await expectError(
        await publicCall(shop.slug, 'POST', '/public/orders', body),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        error.details?.issues?.map((issue) => issue.path),
        path,
      ).toContain(path);
    }
    const after = await h.database.db
      .selectFrom('orders')
      .select('id')
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(after).toHaveLength(before.length);
  });

  it('needs the tenant header and a known organization', async () => {
    await expectError(
      await publicCall(undefined, 'POST', '/public/orders', orderBody()),
      400,
      'TENANT_REQUIRED',
    );
    await expectError(
      await publicCall('no-such-shop', 'POST', '/public/orders', orderBody()),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('is rate-limited per store and client: 429 with Retry-After after 60 in ten minutes', async () => {
    const limited = await createRoleFixture(h, 'orders-limited');
    const limitedItem = await newItem(limited, 'cap');
    const body = orderBody({
      items: [{ itemId: limitedItem, name: 'Cap', quantity: 1, unitPriceInCents: 100 }],
    });
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 60; i++) {
      expect((await publicCall(limited.slug, 'POST', '/public/orders', body, headers)).status).toBe(201);
    }
    const response = await publicCall(limited.slug, 'POST', '/public/orders', body, headers);
    await expectError(response, 429, 'RATE_LIMIT_EXCEEDED');
    expect(response.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  });
});

describe('public order reads and the apiSettings.publicOrderReadsEnabled switch', () => {
  let order: Order;
  let foreign: Order;
  beforeAll(async () => {
    order = await placeOrder(shop, { notes: 'customer-facing? no' });
    foreign = await placeOrder(other);
    await setPublicReads(other, true);
  });

  const paths = () => [
    '/public/orders',
    `/public/orders/${order.id}`,
    `/public/orders/number/${order.orderNumber}`,
  ];

  for (const actor of ACTORS) {
    it(`answers 404 to ${actor} while the switch is off (the default)`, async () => {
      for (const path of paths()) {
        await expectError(await shop.call(actor, 'GET', path), 404, 'RESOURCE_NOT_FOUND');
      }
    });
  }

  it('answers with notes stripped once the switch is on, and 404 again when turned off', async () => {
    await setPublicReads(shop, true);
    try {
      for (const actor of ACTORS) {
        const list = await ok<{ data: Order[]; nextCursor: string | null }>(
          await shop.call(actor, 'GET', '/public/orders?limit=200'),
          200,
        );
        expect(list.data.map((row) => row.id)).toContain(order.id);
        expect(list.data.map((row) => row.id)).not.toContain(foreign.id);
        for (const row of list.data) {
          expect(row).not.toHaveProperty('notes');
          expect(row).not.toHaveProperty('salesRecordId');
        }
        const byId = await ok<Order>(await shop.call(actor, 'GET', `/public/orders/${order.id}`), 200);
        const byNumber = await ok<Order>(
          await shop.call(actor, 'GET', `/public/orders/number/${order.orderNumber}`),
          200,
        );
        expect(byNumber).toEqual(byId);
        expect(byId).toMatchObject({ id: order.id, orderNumber: order.orderNumber });
        expect(byId).not.toHaveProperty('notes');
      }
      const raw = await (await publicCall(shop.slug, 'GET', `/public/orders/${order.id}`)).text();
      expect(raw).not.toContain('customer-facing');
      // A foreign order and an unknown number are the same neutral 404.
      await expectError(
        await publicCall(shop.slug, 'GET', `/public/orders/${foreign.id}`),
        404,
        'RESOURCE_NOT_FOUND',
      );
      await expectError(
        await publicCall(shop.slug, 'GET', '/public/orders/number/99999'),
        404,
        'RESOURCE_NOT_FOUND',
      );
      await expectError(
        await publicCall(shop.slug, 'GET', '/public/orders/number/abc'),
        400,
        'VALIDATION_FAILED',
      );
    } finally {
      await setPublicReads(shop, false);
    }
    for (const path of paths())
      await expectError(await publicCall(shop.slug, 'GET', path), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('POST /public/order-status', () => {
  it('shows the order of an o1_ token to every caller, without the tenant header, notes stripped, switch off', async () => {
    const order = await placeOrder(shop, { notes: 'private' });
    for (const actor of ACTORS) {
      const response = await shop.call(actor, 'POST', '/public/order-status', {
        token: order.orderStatusToken,
      });
      const read = await ok<Order>(response, 200);
      expect(read).toMatchObject({ id: order.id, orderNumber: order.orderNumber });
      expect(read).not.toHaveProperty('notes');
    }
    const bare = await publicCall(undefined, 'POST', '/public/order-status', {
      token: order.orderStatusToken,
    });
    expect((await ok<Order>(bare, 200)).id).toBe(order.id);
  });

  it('answers one neutral 404 to unknown, malformed and other-family tokens', async () => {
    for (const token of [`o1_${'A'.repeat(43)}`, 'o1_short', `a1_${'A'.repeat(43)}`, '']) {
      const error = await expectError(
        await publicCall(undefined, 'POST', '/public/order-status', { token }),
        404,
        'RESOURCE_NOT_FOUND',
      );
      expect(error.message).toBe('Order not found');
    }
    await expectError(
      await publicCall(undefined, 'POST', '/public/order-status', {}),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('GET /merchant/orders, /merchant/orders/{id}, /merchant/orders/number/{num}', () => {
  let order: Order;
  let foreign: Order;
  beforeAll(async () => {
    order = await placeOrder(shop, { customerEmail: 'lister@example.com', notes: 'merchant eyes only' });
    foreign = await placeOrder(other, { customerEmail: 'lister@example.com' });
  });

  for (const actor of ACTORS) {
    const status = expectedStatus(actor, MEMBER_ACTORS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const responses = [
        await shop.call(actor, 'GET', '/merchant/orders?email=LISTER@example.com'),
        await shop.call(actor, 'GET', `/merchant/orders/${order.id}`),
        await shop.call(actor, 'GET', `/merchant/orders/number/${order.orderNumber}`),
      ];
      if (status !== 200) {
        for (const response of responses) await expectError(response, status, denial(status));
        return;
      }
      const [list, byId, byNumber] = [
        await ok<{ data: Order[]; nextCursor: string | null }>(responses[0]!, 200),
        await ok<Order>(responses[1]!, 200),
        await ok<Order>(responses[2]!, 200),
      ];
      expect(list.data.map((row) => row.id)).toEqual([order.id]);
      expect(list.nextCursor).toBeNull();
      expect(byId).toMatchObject({
        id: order.id,
        notes: 'merchant eyes only',
        salesRecordId: expect.stringMatching(/^sal_/),
        fulfillmentStatus: 'UNFULFILLED',
      });
      expect(byNumber).toEqual(byId);
      expect(list.data[0]).toEqual(byId);
    });
  }

  it('filters, searches and pages; foreign and unknown orders are 404; bad queries 400', async () => {
    const byNumber = await ok<{ data: Order[] }>(
      await shop.call('staffWithout', 'GET', `/merchant/orders?search=%23${order.orderNumber}`),
      200,
    );
    expect(byNumber.data.map((row) => row.id)).toEqual([order.id]);
    const bySubstring = await ok<{ data: Order[] }>(
      await shop.call(
        'staffWithout',
        'GET',
        '/merchant/orders?search=LISTER&status=PENDING&fulfillmentStatus=UNFULFILLED',
      ),
      200,
    );
    expect(bySubstring.data.map((row) => row.id)).toEqual([order.id]);
    const page = await ok<{ data: Order[]; nextCursor: string }>(
      await shop.call('owner', 'GET', '/merchant/orders?limit=1'),
      200,
    );
    expect(page.data).toHaveLength(1);
    const next = await ok<{ data: Order[] }>(
      await shop.call('owner', 'GET', `/merchant/orders?limit=1&cursor=${page.nextCursor}`),
      200,
    );
    expect(next.data[0]!.id).not.toBe(page.data[0]!.id);
    const future = encodeURIComponent('2999-01-01T00:00:00Z');
    expect(
      (
        await ok<{ data: Order[] }>(
          await shop.call('owner', 'GET', `/merchant/orders?createdFrom=${future}`),
          200,
        )
      ).data,
    ).toEqual([]);

    await expectError(
      await shop.call('owner', 'GET', `/merchant/orders/${foreign.id}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await shop.call('owner', 'GET', '/merchant/orders/number/99999'),
      404,
      'RESOURCE_NOT_FOUND',
    );
    for (const num of ['0', '-1', '1e3', '0x10', '01', 'abc']) {
      await expectError(
        await shop.call('owner', 'GET', `/merchant/orders/number/${num}`),
        400,
        'VALIDATION_FAILED',
      );
    }
    for (const query of [
      'status=DONE',
      'fulfillmentStatus=SHIPPED',
      'limit=0',
      'cursor=ord_nope',
      'createdFrom=yesterday',
    ]) {
      await expectError(
        await shop.call('owner', 'GET', `/merchant/orders?${query}`),
        400,
        'VALIDATION_FAILED',
      );
    }
  });
});

describe('PATCH /merchant/orders/{id}/status', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, OPERATORS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const order = await placeOrder();
      const response = await shop.call(actor, 'PATCH', `/merchant/orders/${order.id}/status`, {
        status: 'CONFIRMED',
      });
      if (status === 200) {
        expect((await ok<Order>(response, 200)).status).toBe('CONFIRMED');
        expect(await auditActions(shop.organizationId, order.id)).toEqual([
          ['order.status_changed', { from: 'PENDING', to: 'CONFIRMED' }],
        ]);
      } else {
        await expectError(response, status, denial(status));
        expect((await storedOrder(order.id)).status).toBe('PENDING');
        expect(await auditActions(shop.organizationId, order.id)).toEqual([]);
      }
    });
  }

  it('walks the table and refuses moves outside it with 409, terminal states final', async () => {
    const order = await placeOrder();
    const patch = (status: string) =>
      shop.call('staffWith', 'PATCH', `/merchant/orders/${order.id}/status`, { status });
    const refused = await expectError(await patch('COMPLETED'), 409, 'INVALID_STATE_TRANSITION');
    expect(refused.details).toEqual({ from: 'PENDING', to: 'COMPLETED' });
    await expectError(await patch('PENDING'), 409, 'INVALID_STATE_TRANSITION');
    for (const next of ['CONFIRMED', 'PROCESSING', 'COMPLETED']) {
      expect((await ok<Order>(await patch(next), 200)).status).toBe(next);
    }
    for (const next of ['CANCELLED', 'PENDING', 'PROCESSING', 'COMPLETED']) {
      await expectError(await patch(next), 409, 'INVALID_STATE_TRANSITION');
    }
    const cancelled = await placeOrder();
    expect(
      (
        await ok<Order>(
          await shop.call('owner', 'PATCH', `/merchant/orders/${cancelled.id}/status`, {
            status: 'CANCELLED',
          }),
          200,
        )
      ).status,
    ).toBe('CANCELLED');
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/orders/${cancelled.id}/status`, { status: 'CONFIRMED' }),
      409,
      'INVALID_STATE_TRANSITION',
    );
  });

  it('refuses unknown statuses and keys with 400, foreign orders with 404', async () => {
    const order = await placeOrder();
    const foreign = await placeOrder(other);
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/orders/${order.id}/status`, { status: 'confirmed' }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/orders/${order.id}/status`, {
        status: 'CONFIRMED',
        note: 'x',
      }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/orders/${foreign.id}/status`, { status: 'CONFIRMED' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expect((await storedOrder(foreign.id)).status).toBe('PENDING');
  });
});

describe('PATCH /merchant/orders/{id}/notes', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, OPERATORS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const order = await placeOrder();
      const response = await shop.call(actor, 'PATCH', `/merchant/orders/${order.id}/notes`, {
        notes: 'VIP',
      });
      if (status === 200) {
        expect((await ok<Order>(response, 200)).notes).toBe('VIP');
        const cleared = await shop.call(actor, 'PATCH', `/merchant/orders/${order.id}/notes`, {
          notes: null,
        });
        expect((await ok<Order>(cleared, 200)).notes).toBeNull();
        expect(await auditActions(shop.organizationId, order.id)).toEqual([
          ['order.notes_updated', { cleared: false }],
          ['order.notes_updated', { cleared: true }],
        ]);
      } else {
        await expectError(response, status, denial(status));
        expect((await storedOrder(order.id)).notes).toBeNull();
      }
    });
  }

  it('refuses notes over 2000 characters, a missing notes key and unknown keys', async () => {
    const order = await placeOrder();
    for (const body of [{ notes: 'n'.repeat(2001) }, {}, { notes: 'ok', status: 'CONFIRMED' }]) {
      await expectError(
        await shop.call('owner', 'PATCH', `/merchant/orders/${order.id}/notes`, body),
        400,
        'VALIDATION_FAILED',
      );
    }
    expect(
      (
        await ok<Order>(
          await shop.call('owner', 'PATCH', `/merchant/orders/${order.id}/notes`, {
            notes: 'n'.repeat(2000),
          }),
          200,
        )
      ).notes,
    ).toHaveLength(2000);
  });
});

describe('PATCH /merchant/orders/{id}/fulfillment-status (deprecated)', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, MEMBER_ACTORS, 409);
    it(`answers ${status} to ${actor} and changes nothing`, async () => {
      const order = await placeOrder();
      const before = await storedOrder(order.id);
      const response = await shop.call(actor, 'PATCH', `/merchant/orders/${order.id}/fulfillment-status`, {
        fulfillmentStatus: 'FULFILLED',
      });
      if (status === 409) await expectError(response, 409, 'LINE_FULFILLMENT_REQUIRED');
      else await expectError(response, status, denial(status));
      expect(await storedOrder(order.id)).toEqual(before);
      expect(await auditActions(shop.organizationId, order.id)).toEqual([]);
    });
  }

  it('answers 409 whatever the id or body', async () => {
    for (const body of [{}, { status: 'nonsense', extra: [1, 2] }, { fulfillmentStatus: 'UNFULFILLED' }]) {
      await expectError(
        await shop.call('owner', 'PATCH', '/merchant/orders/ord_unknown/fulfillment-status', body),
        409,
        'LINE_FULFILLMENT_REQUIRED',
      );
    }
  });
});

describe('the OpenAPI document', () => {
  it('lists every order route with its bodies, statuses and codes, and explains the public-read switch', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            description?: string;
            deprecated?: boolean;
            requestBody?: unknown;
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    const expected: [string, string, string][] = [
      ['/public/orders', 'post', '201'],
      ['/public/orders', 'get', '200'],
      ['/public/orders/{id}', 'get', '200'],
      ['/public/orders/number/{num}', 'get', '200'],
      ['/public/order-status', 'post', '200'],
      ['/merchant/orders', 'get', '200'],
      ['/merchant/orders/{id}', 'get', '200'],
      ['/merchant/orders/number/{num}', 'get', '200'],
      ['/merchant/orders/{id}/status', 'patch', '200'],
      ['/merchant/orders/{id}/notes', 'patch', '200'],
      ['/merchant/orders/{id}/fulfillment-status', 'patch', '409'],
    ];
    for (const [path, method, success] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation!.responses), `${method} ${path}`).toContain(success);
      if (method !== 'get') expect(operation!.requestBody, `${method} ${path}`).toBeDefined();
    }
    for (const path of ['/public/orders', '/public/orders/{id}', '/public/orders/number/{num}']) {
      expect(document.paths[path]!.get!.description).toContain('apiSettings.publicOrderReadsEnabled');
    }
    expect(document.paths['/merchant/orders/{id}/fulfillment-status']!.patch!.deprecated).toBe(true);
    expect(JSON.stringify(document.paths['/merchant/orders/{id}/status']!.patch!.responses['409'])).toContain(
      'INVALID_STATE_TRANSITION',
    );
    expect(JSON.stringify(document.paths['/public/orders']!.post!.responses['429'])).toContain(
      'RATE_LIMIT_EXCEEDED',
    );
  });
});
