import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, expectJson, type Harness } from '../support/harness.ts';
import { placeGuestOrder } from '../support/orders.ts';
import { ACTORS, type Actor, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let itemId: string;
let variantId: string;

interface Order {
  id: string;
  salesRecordId: string;
  status: string;
  items: { id: string }[];
  shippingAddress: Record<string, string | null> | null;
}
interface Fulfillment {
  id: string;
  status: string;
  version: number;
  tracking: { carrier: string; trackingNumber: string; trackingUrl: string | null } | null;
  package: Record<string, unknown> | null;
}

let keySequence = 0;
const newKey = () => `http-edges-${process.pid}-${++keySequence}-0123456789`;

async function issuePaths(response: Response): Promise<string[]> {
  const error = await expectError(response, 400, 'VALIDATION_FAILED');
  return (error.details as { issues: { path: string }[] }).issues.map((issue) => issue.path);
}

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'edges-shop', ['fulfillment:operate']);
  other = await createRoleFixture(h, 'edges-other', ['fulfillment:operate']);
  itemId = (
    await expectJson<{ id: string }>(
      await shop.call('owner', 'POST', '/merchant/items', {
        slug: 'tee',
        name: 'Tee',
        type: 'SALE',
        status: 'ACTIVE',
      }),
      201,
    )
  ).id;
  variantId = (
    await expectJson<{ id: string }>(
      await shop.call('owner', 'POST', `/merchant/items/${itemId}/variants`, {
        name: 'Blue',
        sku: 'TEE-B',
        inventoryQuantity: 50,
      }),
      201,
    )
  ).id;
});
afterAll(async () => {
  await h.close();
});

/** Ada's guest order of `quantity` blue tees, as the Owner reads it. */
const placeOrder = (quantity: number): Promise<Order> =>
  placeGuestOrder<Order>(h, shop, [{ itemId, variantId, name: 'Tee', quantity, unitPriceInCents: 1000 }]);

const ADDRESS = {
  name: 'Ada Lovelace',
  line1: '1 Main St',
  city: 'Lisbon',
  postalCode: '1000-001',
  country: 'pt',
};

describe('PUT /merchant/orders/{id}/shipping-address', () => {
  it('sets the ship-to by either id, answers the order, and is refused once the order is cancelled', async () => {
    const order = await placeOrder(2);
    const read = await expectJson<Order>(
      await shop.call('staffWith', 'PUT', `/merchant/orders/${order.id}/shipping-address`, {
        ...ADDRESS,
        phone: '+351 21',
      }),
      200,
    );
    expect(read).toMatchObject({
      id: order.id,
      shippingAddress: { ...ADDRESS, country: 'PT', line2: null, state: null, phone: '+351 21' },
    });
    const viaRecord = await expectJson<Order>(
      await shop.call('owner', 'PUT', `/merchant/orders/${order.salesRecordId}/shipping-address`, {
        ...ADDRESS,
        line2: 'Flat 2',
      }),
      200,
    );
    expect(viaRecord.shippingAddress).toMatchObject({ line2: 'Flat 2', phone: null });
    const audits = await h.database.db
      .selectFrom('audit_logs')
      .select('metadata')
      .where('action', '=', 'order.shipping_address_updated')
      .where('target_id', '=', order.id)
      .execute();
    expect(audits.map((audit) => (audit.metadata as { fields: string[] }).fields)).toEqual([
      ['name', 'line1', 'city', 'postalCode', 'country', 'phone'],
      ['line2', 'phone'],
    ]);

    await expectJson(
      await shop.call('owner', 'PATCH', `/merchant/orders/${order.id}/status`, { status: 'CANCELLED' }),
      200,
    );
    const refused = await expectError(
      await shop.call('owner', 'PUT', `/merchant/orders/${order.id}/shipping-address`, ADDRESS),
      409,
      'ORDER_NOT_FULFILLABLE',
    );
    expect(refused.details).toEqual({ reason: 'CANCELLED' });
  });

  it('refuses bad input at its issue path, hides foreign and unknown ids, and needs fulfillment:operate', async () => {
    const order = await placeOrder(1);
    const path = `/merchant/orders/${order.id}/shipping-address`;
    expect(await issuePaths(await shop.call('owner', 'PUT', path, { ...ADDRESS, country: 'PRT' }))).toEqual([
      'country',
    ]);
    expect(
      await issuePaths(await shop.call('owner', 'PUT', path, { ...ADDRESS, line1: 'x'.repeat(301) })),
    ).toEqual(['line1']);
    expect(await issuePaths(await shop.call('owner', 'PUT', path, { ...ADDRESS, city: 7 }))).toEqual([
      'city',
    ]);
    expect(await issuePaths(await shop.call('owner', 'PUT', path, { ...ADDRESS, name: undefined }))).toEqual([
      'name',
    ]);
    await expectError(
      await shop.call('owner', 'PUT', path, { ...ADDRESS, extra: true }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(await other.call('owner', 'PUT', path, ADDRESS), 404, 'RESOURCE_NOT_FOUND');
    await expectError(
      await shop.call(
        'owner',
        'PUT',
        '/merchant/orders/ord_00000000000000000000000000/shipping-address',
        ADDRESS,
      ),
      404,
      'RESOURCE_NOT_FOUND',
    );
    for (const actor of ACTORS) {
      const response = await shop.call(actor, 'PUT', path, { ...ADDRESS, city: `City ${actor}` });
      expect(response.status, actor).toBe(expectedStatus(actor, ['owner', 'admin', 'staffWith'], 200));
    }
    const read = await expectJson<Order>(
      await shop.call('staffWithout', 'GET', `/merchant/orders/${order.id}`),
      200,
    );
    expect(read.shippingAddress?.city).toBe('City staffWith');
  });
});

describe('POST /merchant/commerce/orders/{recordId}/planned-fulfillments with a package', () => {
  it('stores the preset’s outer package, refuses an archived preset and bad packages at their paths', async () => {
    const order = await placeOrder(3);
    const line = order.items[0]!.id;
    const preset = await expectJson<{ id: string; revision: number }>(
      await shop.call('owner', 'POST', '/merchant/shipping/box-presets', {
        name: `Plan box ${order.id}`,
        innerLengthMm: 300,
        innerWidthMm: 200,
        innerHeightMm: 100,
        outerHeightMm: 110,
        tareWeightGrams: 100,
      }),
      201,
    );
    const path = `/merchant/commerce/orders/${order.salesRecordId}/planned-fulfillments`;
    const plan = (pkg: unknown, actor: Actor = 'staffWith') =>
      shop.call(
        actor,
        'POST',
        path,
        { lines: [{ lineId: line, quantity: 1 }], package: pkg },
        {
          'x-idempotency-key': newKey(),
        },
      );
    const planned = await expectJson<Fulfillment>(
      await plan({ boxPresetId: preset.id, boxPresetRevision: preset.revision, loadedWeightGrams: 800 }),
      201,
    );
    expect(planned).toMatchObject({
      status: 'PLANNED',
      package: {
        boxPresetId: preset.id,
        boxPresetRevision: 1,
        lengthMm: 300,
        widthMm: 200,
        heightMm: 110,
        loadedWeightGrams: 800,
      },
    });
    expect(await issuePaths(await plan({ boxPresetId: preset.id }))).toEqual(['package.loadedWeightGrams']);
    expect(
      await issuePaths(await plan({ lengthMm: 0, widthMm: 1, heightMm: 1, loadedWeightGrams: 1 })),
    ).toEqual(['package.lengthMm']);
    expect(await issuePaths(await plan({ boxPresetId: preset.id, loadedWeightGrams: 99 }))).toEqual([
      'package.loadedWeightGrams',
    ]);
    expect(await issuePaths(await plan({ boxPresetId: 'box_unknown', loadedWeightGrams: 500 }))).toEqual([
      'package.boxPresetId',
    ]);
    const stale = await expectError(
      await plan({ boxPresetId: preset.id, boxPresetRevision: 7, loadedWeightGrams: 500 }),
      409,
      'STALE_STATE',
    );
    expect(stale.details).toEqual({ boxPresetId: preset.id, revision: 1 });
    await expectJson(
      await shop.call('owner', 'POST', `/merchant/shipping/box-presets/${preset.id}/archive`),
      201,
    );
    await expectError(await plan({ boxPresetId: preset.id, loadedWeightGrams: 500 }), 409, 'STALE_STATE');
    await expectError(
      await plan({ boxPresetId: preset.id, loadedWeightGrams: 500 }, 'staffWithout'),
      403,
      'FORBIDDEN',
    );
    const read = await expectJson<Order & { items: { allocatedQuantity: number }[] }>(
      await shop.call('owner', 'GET', `/merchant/orders/${order.id}`),
      200,
    );
    expect(read.items[0]!.allocatedQuantity).toBe(1);
  });
});

describe('PATCH /merchant/orders/{id}/tracking', () => {
  const shipDirect = async (order: Order, tracking?: object) =>
    expectJson<Fulfillment>(
      await shop.call(
        'owner',
        'POST',
        `/merchant/commerce/orders/${order.id}/fulfillments`,
        {
          lines: [{ lineId: order.items[0]!.id, quantity: 1 }],
          notifyCustomer: true,
          ...(tracking ? { tracking } : {}),
        },
        { 'x-idempotency-key': newKey() },
      ),
      201,
    );
  /** The rows a repair may never touch, for one order. */
  const snapshot = async (order: Order) => {
    const db = h.database.db;
    const [fulfillments, lines, variant, movements, outbox] = await Promise.all([
      db
        .selectFrom('fulfillments')
        .selectAll()
        .where('sales_record_id', '=', order.salesRecordId)
        .orderBy('id')
        .execute(),
      db
        .selectFrom('sales_record_lines')
        .selectAll()
        .where('sales_record_id', '=', order.salesRecordId)
        .execute(),
      db.selectFrom('variants').select('inventory_quantity').where('id', '=', variantId).execute(),
      db
        .selectFrom('inventory_movements')
        .selectAll()
        .where('organization_id', '=', shop.organizationId)
        .orderBy('id')
        .execute(),
      db
        .selectFrom('outbox')
        .select(['id', 'status', 'dedupe_key'])
        .where('organization_id', '=', shop.organizationId)
        .orderBy('id')
        .execute(),
    ]);
    return { fulfillments, lines, variant, movements, outbox };
  };

  it('fails closed with zero or two compatible shipments and changes nothing', async () => {
    const order = await placeOrder(3);
    const path = `/merchant/orders/${order.id}/tracking`;
    let before = await snapshot(order);
    const none = await expectError(
      await shop.call('owner', 'PATCH', path, { carrier: 'UPS', trackingNumber: '1Z1' }),
      409,
      'TRACKING_HISTORY_AMBIGUOUS',
    );
    expect(none.details).toEqual({ compatibleCount: 0 });
    expect(await snapshot(order)).toEqual(before);

    const first = await shipDirect(order, { carrier: 'UPS', trackingNumber: '1Z1' });
    await shipDirect(order);
    before = await snapshot(order);
    const two = await expectError(
      await shop.call('staffWith', 'PATCH', `/merchant/orders/${order.salesRecordId}/tracking`, {
        trackingNumber: '1Z2',
        expectedFulfillmentId: first.id,
      }),
      409,
      'TRACKING_HISTORY_AMBIGUOUS',
    );
    expect(two.details).toEqual({ compatibleCount: 2 });
    expect(await snapshot(order)).toEqual(before);
  });

  it('repairs the one shipment, refuses a stale expectation, bad input, foreign ids and Staff without the group', async () => {
    const order = await placeOrder(2);
    const shipped = await shipDirect(order, { carrier: 'UPS', trackingNumber: '1Z1' });
    const path = `/merchant/orders/${order.id}/tracking`;
    const stale = await expectError(
      await shop.call('owner', 'PATCH', path, { trackingNumber: '1Z2', expectedFulfillmentId: 'ful_other' }),
      409,
      'STALE_STATE',
    );
    expect(stale.details).toEqual({ fulfillmentId: shipped.id });
    expect(await issuePaths(await shop.call('owner', 'PATCH', path, {}))).toEqual(['']);
    expect(
      await issuePaths(await shop.call('owner', 'PATCH', path, { trackingUrl: 'http://x.example' })),
    ).toEqual(['trackingUrl']);
    expect(await issuePaths(await shop.call('owner', 'PATCH', path, { trackingNumber: null }))).toEqual([
      'trackingNumber',
    ]);
    expect(await issuePaths(await shop.call('owner', 'PATCH', path, { carrier: 'x'.repeat(51) }))).toEqual([
      'carrier',
    ]);
    await expectError(
      await other.call('owner', 'PATCH', path, { trackingNumber: '1Z2' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await shop.call('owner', 'PATCH', '/merchant/orders/sal_unknown/tracking', { trackingNumber: '1Z2' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await shop.call('staffWithout', 'PATCH', path, { trackingNumber: '1Z2' }),
      403,
      'FORBIDDEN',
    );
    const before = await snapshot(order);
    const repaired = await expectJson<{ fulfillment: Fulfillment }>(
      await shop.call('staffWith', 'PATCH', path, {
        trackingNumber: '1Z 2',
        trackingUrl: 'https://ups.example/1Z2',
        expectedFulfillmentId: shipped.id,
      }),
      200,
    );
    expect(repaired.fulfillment).toMatchObject({
      id: shipped.id,
      status: 'SHIPPED',
      tracking: { carrier: 'UPS', trackingNumber: '1Z 2', trackingUrl: 'https://ups.example/1Z2' },
      version: shipped.version + 1,
    });
    const after = await snapshot(order);
    expect({ ...after, fulfillments: [] }).toEqual({ ...before, fulfillments: [] });
    const audit = await h.database.db
      .selectFrom('audit_logs')
      .select('metadata')
      .where('action', '=', 'fulfillment.tracking_repaired')
      .where('target_id', '=', shipped.id)
      .executeTakeFirstOrThrow();
    expect(audit.metadata).toEqual({
      fulfillmentId: shipped.id,
      recordId: order.salesRecordId,
      fields: ['trackingNumber', 'trackingUrl'],
    });
  });
});
