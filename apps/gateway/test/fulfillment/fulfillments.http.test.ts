import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, expectJson, type Harness } from '../support/harness.ts';
import { placeGuestOrder } from '../support/orders.ts';
import { createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let itemId: string;
let variantId: string;

interface Order {
  id: string;
  salesRecordId: string;
  fulfillmentStatus: string;
  items: { id: string; shippedQuantity: number | null; unfulfilledQuantity: number | null }[];
  orderStatusToken?: string;
}
interface Fulfillment {
  id: string;
  recordId: string;
  orderId: string | null;
  status: string;
  recordFulfillmentStatus?: string;
}

let keySequence = 0;
const newKey = () => `http-fulfil-${process.pid}-${++keySequence}-0123456789`;

beforeAll(async () => {
  h = await createHarness({ poolSize: 24 });
  shop = await createRoleFixture(h, 'fulfil-shop', ['fulfillment:operate']);
  other = await createRoleFixture(h, 'fulfil-other', ['fulfillment:operate']);
  const item = await expectJson<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/items', {
      slug: 'tee',
      name: 'Tee',
      type: 'SALE',
      status: 'ACTIVE',
    }),
    201,
  );
  itemId = item.id;
  const variant = await expectJson<{ id: string }>(
    await shop.call('owner', 'POST', `/merchant/items/${itemId}/variants`, {
      name: 'Blue',
      sku: 'TEE-B',
      inventoryQuantity: 50,
    }),
    201,
  );
  variantId = variant.id;
});
afterAll(async () => {
  await h.close();
});

/** Ada's guest order of `quantity` blue tees, as the Owner reads it. */
const placeOrder = (quantity: number): Promise<Order> =>
  placeGuestOrder<Order>(h, shop, [{ itemId, variantId, name: 'Tee', quantity, unitPriceInCents: 1000 }]);

const stock = async () =>
  (
    await h.database.db
      .selectFrom('variants')
      .select('inventory_quantity')
      .where('id', '=', variantId)
      .executeTakeFirstOrThrow()
  ).inventory_quantity!;

describe('POST /merchant/commerce/orders/{recordId}/fulfillments', () => {
  it('ships, answers 201 with recordFulfillmentStatus, and shows the counters on the order', async () => {
    const order = await placeOrder(3);
    const line = order.items[0]!.id;
    const before = await stock();
    const response = await shop.call(
      'owner',
      'POST',
      `/merchant/commerce/orders/${order.id}/fulfillments`,
      { lines: [{ lineId: line, quantity: 2 }], notifyCustomer: false },
      { 'x-idempotency-key': newKey() },
    );
    const created = await expectJson<Fulfillment>(response, 201);
    expect(created).toMatchObject({
      recordId: order.salesRecordId,
      orderId: order.id,
      status: 'SHIPPED',
      recordFulfillmentStatus: 'PARTIALLY_FULFILLED',
    });
    // The answer is built from the rows just written: it is what a read returns.
    const { recordFulfillmentStatus: _status, ...answered } = created;
    expect(
      await expectJson<Fulfillment>(
        await shop.call('owner', 'GET', `/merchant/commerce/orders/${order.id}/fulfillments/${created.id}`),
        200,
      ),
    ).toEqual(answered);
    expect(await stock()).toBe(before - 2);
    const read = await expectJson<Order>(
      await shop.call('staffWithout', 'GET', `/merchant/orders/${order.id}`),
      200,
    );
    expect(read.fulfillmentStatus).toBe('PARTIALLY_FULFILLED');
    expect(read.items[0]).toMatchObject({ shippedQuantity: 2, unfulfilledQuantity: 1 });
    const viaRecord = await expectJson<Fulfillment>(
      await shop.call(
        'staffWithout',
        'GET',
        `/merchant/commerce/orders/${order.salesRecordId}/fulfillments/${created.id}`,
      ),
      200,
    );
    expect(viaRecord.id).toBe(created.id);
    const list = await expectJson<{ data: Fulfillment[]; nextCursor: string | null }>(
      await shop.call('staffWithout', 'GET', `/merchant/commerce/orders/${order.id}/fulfillments`),
      200,
    );
    expect(list).toMatchObject({ data: [{ id: created.id }], nextCursor: null });
  });

  it('replays 20 concurrent identical requests byte for byte; another body is IDEMPOTENCY_KEY_REUSED', async () => {
    const order = await placeOrder(4);
    const line = order.items[0]!.id;
    const key = newKey();
    const path = `/merchant/commerce/orders/${order.id}/fulfillments`;
    const body = { lines: [{ lineId: line, quantity: 1 }], notifyCustomer: true };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => shop.call('owner', 'POST', path, body, { 'x-idempotency-key': key })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    expect(
      responses.filter((response) => response.headers.get('idempotent-replayed') === 'true'),
    ).toHaveLength(19);
    const texts = await Promise.all(responses.map((response) => response.text()));
    expect(new Set(texts).size).toBe(1);
    const fulfillments = await h.database.db
      .selectFrom('fulfillments')
      .select('id')
      .where('sales_record_id', '=', order.salesRecordId)
      .execute();
    expect(fulfillments).toHaveLength(1);
    const reused = await shop.call(
      'owner',
      'POST',
      path,
      { ...body, notifyCustomer: false },
      { 'x-idempotency-key': key },
    );
    const error = await expectError(reused, 409, 'IDEMPOTENCY_KEY_REUSED');
    expect(error.details).toEqual({ fields: ['notifyCustomer'] });
  });

  it('lets one of 20 concurrent distinct-key requests for the last 3 units through', async () => {
    const order = await placeOrder(5);
    const line = order.items[0]!.id;
    const path = `/merchant/commerce/orders/${order.id}/fulfillments`;
    await expectJson(
      await shop.call(
        'owner',
        'POST',
        path,
        { lines: [{ lineId: line, quantity: 2 }], notifyCustomer: false },
        {
          'x-idempotency-key': newKey(),
        },
      ),
      201,
    );
    const before = await stock();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        shop.call(
          'owner',
          'POST',
          path,
          { lines: [{ lineId: line, quantity: 3 }], notifyCustomer: false },
          {
            'x-idempotency-key': newKey(),
          },
        ),
      ),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    const refusals = responses.filter((response) => response.status !== 201);
    expect(refusals).toHaveLength(19);
    for (const refusal of refusals) await expectError(refusal, 409, 'OVER_FULFILLMENT');
    expect(await stock()).toBe(before - 3);
    const movements = await h.database.db
      .selectFrom('inventory_movements')
      .select('quantity')
      .where('line_id', '=', line)
      .execute();
    expect(movements.map((row) => row.quantity).sort()).toEqual([2, 3]);
  });

  it('gives the contract envelope to bad input, unknown and foreign ids', async () => {
    const order = await placeOrder(2);
    const line = order.items[0]!.id;
    const path = `/merchant/commerce/orders/${order.id}/fulfillments`;
    const good = { lines: [{ lineId: line, quantity: 1 }], notifyCustomer: true };
    const cases: [unknown, Record<string, string>, string][] = [
      [good, {}, 'headers.x-idempotency-key'],
      [good, { 'x-idempotency-key': 'short' }, 'headers.x-idempotency-key'],
      [{ lines: good.lines }, { 'x-idempotency-key': newKey() }, 'notifyCustomer'],
      [
        { ...good, lines: [{ lineId: line, quantity: 0 }] },
        { 'x-idempotency-key': newKey() },
        'lines.0.quantity',
      ],
      [
        { ...good, lines: [{ lineId: line, quantity: -2 }] },
        { 'x-idempotency-key': newKey() },
        'lines.0.quantity',
      ],
      [
        { ...good, lines: [{ lineId: line, quantity: 1.5 }] },
        { 'x-idempotency-key': newKey() },
        'lines.0.quantity',
      ],
      [
        {
          ...good,
          lines: [
            { lineId: line, quantity: 1 },
            { lineId: line, quantity: 1 },
          ],
        },
        { 'x-idempotency-key': newKey() },
        'lines.1.lineId',
      ],
      [
        { ...good, lines: [{ lineId: 'sli_elsewhere', quantity: 1 }] },
        { 'x-idempotency-key': newKey() },
        'lines.0.lineId',
      ],
    ];
    for (const [body, headers, issuePath] of cases) {
      const error = await expectError(
        await shop.call('owner', 'POST', path, body, headers),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        error.details?.issues?.map((issue) => issue.path),
        issuePath,
      ).toContain(issuePath);
    }
    for (const recordId of ['ord_00000000000000000000000000', 'sal_x', 'nonsense']) {
      await expectError(
        await shop.call('owner', 'POST', `/merchant/commerce/orders/${recordId}/fulfillments`, good, {
          'x-idempotency-key': newKey(),
        }),
        404,
        'RESOURCE_NOT_FOUND',
      );
    }
    // Another tenant's order, by either id, is the same neutral 404.
    for (const recordId of [order.id, order.salesRecordId]) {
      await expectError(
        await other.call('owner', 'POST', `/merchant/commerce/orders/${recordId}/fulfillments`, good, {
          'x-idempotency-key': newKey(),
        }),
        404,
        'RESOURCE_NOT_FOUND',
      );
      await expectError(
        await other.call('owner', 'GET', `/merchant/commerce/orders/${recordId}/fulfillments`),
        404,
        'RESOURCE_NOT_FOUND',
      );
    }
  });

  it('needs fulfillment:operate for writes; reads are open to members', async () => {
    const order = await placeOrder(5);
    const line = order.items[0]!.id;
    const path = `/merchant/commerce/orders/${order.id}/fulfillments`;
    for (const actor of ['owner', 'admin', 'staffWith', 'staffWithout', 'outsider', 'anonymous'] as const) {
      const response = await shop.call(
        actor,
        'POST',
        path,
        { lines: [{ lineId: line, quantity: 1 }], notifyCustomer: false },
        { 'x-idempotency-key': newKey() },
      );
      expect(response.status, actor).toBe(expectedStatus(actor, ['owner', 'admin', 'staffWith'], 201));
      const read = await shop.call(actor, 'GET', path);
      expect(read.status, actor).toBe(
        expectedStatus(actor, ['owner', 'admin', 'staffWith', 'staffWithout'], 200),
      );
    }
  });
});

describe('planned fulfillment through handoff, delivery and cancellation', () => {
  it('moves PLANNED → READY → SHIPPED → DELIVERED over HTTP and refuses the rest with 409', async () => {
    const order = await placeOrder(3);
    const line = order.items[0]!.id;
    const base = `/merchant/commerce/orders/${order.salesRecordId}`;
    const planned = await expectJson<Fulfillment>(
      await shop.call(
        'staffWith',
        'POST',
        `${base}/planned-fulfillments`,
        { lines: [{ lineId: line, quantity: 2 }] },
        {
          'x-idempotency-key': newKey(),
        },
      ),
      201,
    );
    expect(planned.status).toBe('PLANNED');
    const spare = await expectJson<Fulfillment>(
      await shop.call(
        'staffWith',
        'POST',
        `${base}/planned-fulfillments`,
        { lines: [{ lineId: line, quantity: 1 }] },
        {
          'x-idempotency-key': newKey(),
        },
      ),
      201,
    );
    await expectError(
      await shop.call(
        'owner',
        'POST',
        `${base}/fulfillments`,
        { lines: [{ lineId: line, quantity: 1 }], notifyCustomer: false },
        {
          'x-idempotency-key': newKey(),
        },
      ),
      409,
      'OVER_FULFILLMENT',
    );
    const f = `${base}/fulfillments/${planned.id}`;
    await expectError(
      await shop.call('owner', 'POST', `${f}/handoff`, { notifyCustomer: true }),
      409,
      'INVALID_STATE_TRANSITION',
    );
    const ready = await expectJson<Fulfillment>(
      await shop.call('owner', 'POST', `${f}/external-postage`, { carrier: 'DHL', trackingNumber: 'JD-1' }),
      200,
    );
    expect(ready.status).toBe('READY');
    const key = newKey();
    const shipped = await shop.call(
      'owner',
      'POST',
      `${f}/handoff`,
      { notifyCustomer: true },
      { 'x-idempotency-key': key },
    );
    expect((await expectJson<Fulfillment>(shipped, 200)).status).toBe('SHIPPED');
    const stockAfter = await stock();
    const replay = await shop.call(
      'owner',
      'POST',
      `/merchant/commerce/orders/${order.id}/fulfillments/${planned.id}/handoff`,
      { notifyCustomer: true },
      {
        'x-idempotency-key': key,
      },
    );
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await stock()).toBe(stockAfter);
    await expectError(
      await shop.call('owner', 'POST', `${f}/handoff`, { notifyCustomer: true }),
      409,
      'INVALID_STATE_TRANSITION',
    );
    // Body-less actions accept an empty body.
    const delivered = await expectJson<Fulfillment>(await shop.call('owner', 'POST', `${f}/deliver`), 200);
    expect(delivered.status).toBe('DELIVERED');
    await expectError(await shop.call('owner', 'POST', `${f}/cancel`, {}), 409, 'INVALID_STATE_TRANSITION');
    const cancelled = await expectJson<Fulfillment>(
      await shop.call('owner', 'POST', `${base}/fulfillments/${spare.id}/cancel`, { reason: 'Damaged box' }),
      200,
    );
    expect(cancelled.status).toBe('CANCELLED');
    await expectError(
      await shop.call('owner', 'POST', `${base}/fulfillments/${spare.id}/cancel`),
      409,
      'INVALID_STATE_TRANSITION',
    );
    await expectError(
      await other.call(
        'owner',
        'POST',
        `/merchant/commerce/orders/${order.id}/fulfillments/${spare.id}/cancel`,
      ),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await shop.call('staffWithout', 'POST', `${base}/fulfillments/${spare.id}/cancel`),
      403,
      'FORBIDDEN',
    );
    const read = await expectJson<Order>(
      await shop.call('owner', 'GET', `/merchant/orders/${order.id}`),
      200,
    );
    expect(read).toMatchObject({
      fulfillmentStatus: 'PARTIALLY_FULFILLED',
      items: [{ shippedQuantity: 2, unfulfilledQuantity: 1 }],
    });
  });
});

describe('shipments on the order-status read', () => {
  it('shows SHIPPED and DELIVERED fulfillments only, without postage or plans', async () => {
    const order = await placeOrder(4);
    const line = order.items[0]!.id;
    const base = `/merchant/commerce/orders/${order.id}`;
    const key = () => ({ 'x-idempotency-key': newKey() });
    await expectJson(
      await shop.call(
        'owner',
        'POST',
        `${base}/fulfillments`,
        {
          lines: [{ lineId: line, quantity: 1 }],
          notifyCustomer: false,
          tracking: { carrier: 'UPS', trackingNumber: '1Z-1', trackingUrl: 'https://ups.example/1Z-1' },
        },
        key(),
      ),
      201,
    );
    const planned = await expectJson<Fulfillment>(
      await shop.call(
        'owner',
        'POST',
        `${base}/planned-fulfillments`,
        { lines: [{ lineId: line, quantity: 2 }] },
        key(),
      ),
      201,
    );
    const cancelled = await expectJson<Fulfillment>(
      await shop.call(
        'owner',
        'POST',
        `${base}/planned-fulfillments`,
        { lines: [{ lineId: line, quantity: 1 }] },
        key(),
      ),
      201,
    );
    await expectJson(await shop.call('owner', 'POST', `${base}/fulfillments/${cancelled.id}/cancel`), 200);
    await expectJson(
      await shop.call('owner', 'POST', `${base}/fulfillments/${planned.id}/external-postage`, {
        carrier: 'DHL',
        trackingNumber: 'JD-2',
      }),
      200,
    );
    const statusRead = async () =>
      expectJson<{ shipments: Record<string, unknown>[] }>(
        await h.app.request('/api/v1/public/order-status', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: order.orderStatusToken }),
        }),
        200,
      );
    expect((await statusRead()).shipments).toEqual([
      {
        status: 'SHIPPED',
        carrier: 'UPS',
        trackingNumber: '1Z-1',
        trackingUrl: 'https://ups.example/1Z-1',
        shippedAt: expect.any(String),
        deliveredAt: null,
        lines: [{ name: 'Tee', quantity: 1 }],
      },
    ]);
    await expectJson(
      await shop.call('owner', 'POST', `${base}/fulfillments/${planned.id}/handoff`, {
        notifyCustomer: true,
      }),
      200,
    );
    const shipments = (await statusRead()).shipments;
    expect(shipments).toHaveLength(2);
    expect(shipments[1]).toEqual({
      status: 'SHIPPED',
      carrier: 'DHL',
      trackingNumber: 'JD-2',
      trackingUrl: null,
      shippedAt: expect.any(String),
      deliveredAt: null,
      lines: [{ name: 'Tee', quantity: 2 }],
    });
  });
});

describe('PATCH /merchant/orders/{id}/fulfillment-status (deprecated)', () => {
  it('is always 409 LINE_FULFILLMENT_REQUIRED and changes nothing', async () => {
    const order = await placeOrder(1);
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/orders/${order.id}/fulfillment-status`, {
        fulfillmentStatus: 'FULFILLED',
      }),
      409,
      'LINE_FULFILLMENT_REQUIRED',
    );
    const read = await expectJson<Order>(
      await shop.call('owner', 'GET', `/merchant/orders/${order.id}`),
      200,
    );
    expect(read.fulfillmentStatus).toBe('UNFULFILLED');
  });
});
