import { newId } from '@commerce/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, expectJson, type Harness } from '../support/harness.ts';
import { placeOrderThroughApi, planOneUnit } from '../support/orders.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * Issue 15: bad input to the fulfillment routes, aimed at ids that exist (so
 * that it reaches past the neutral 404), always gets the error envelope and
 * never a 500, and changes nothing.
 */
let h: Harness;
let shop: RoleFixture;
let sequence = 0;
const newKey = () => `http-hostile-${process.pid}-${++sequence}-0123456789`;

interface Target {
  orderId: string;
  recordId: string;
  lineId: string;
  fulfillmentId: string;
}
let target: Target;

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'hostile-ful', ['fulfillment:operate']);
  const order = await placeOrderThroughApi(h, shop, { slug: 'crate', name: 'Crate', quantity: 3 });
  const fulfillmentId = await planOneUnit(shop, order, newKey());
  await expectJson(
    await shop.call(
      'owner',
      'POST',
      `/merchant/commerce/orders/${order.salesRecordId}/fulfillments/${fulfillmentId}/external-postage`,
      { carrier: 'DHL', trackingNumber: 'JD0001' },
    ),
    200,
  );
  target = {
    orderId: order.id,
    recordId: order.salesRecordId,
    lineId: order.lineId,
    fulfillmentId,
  };
});
afterAll(async () => {
  await h.close();
});

/** The fulfillment write routes over the target's real ids, with route-specific garbage. */
const routes = (t: Target): [string, string, unknown[]][] => {
  const f = `/merchant/commerce/orders/${t.recordId}/fulfillments/${t.fulfillmentId}`;
  const o = `/merchant/orders/${t.orderId}`;
  const lines = (quantity: unknown, lineId: unknown = t.lineId) => ({ lines: [{ lineId, quantity }] });
  return [
    [
      'POST',
      `/merchant/commerce/orders/${t.recordId}/fulfillments`,
      [
        { ...lines(1e30), notifyCustomer: true },
        { ...lines('1'), notifyCustomer: true },
        { ...lines(1, 42), notifyCustomer: true },
        { ...lines(1), notifyCustomer: 'yes' },
        { ...lines(1), notifyCustomer: true, shippedAt: '9999-99-99' },
        { ...lines(1), notifyCustomer: true, tracking: { carrier: 'x'.repeat(10_000), trackingNumber: '1' } },
        {
          lines: Array.from({ length: 101 }, () => ({ lineId: t.lineId, quantity: 1 })),
          notifyCustomer: true,
        },
      ],
    ],
    [
      'POST',
      `/merchant/commerce/orders/${t.recordId}/planned-fulfillments`,
      [lines(Number.NaN), lines(-1), { ...lines(1), package: { boxPresetId: 7 } }, { lines: {} }],
    ],
    [
      'POST',
      `${f}/external-postage`,
      [
        { carrier: '', trackingNumber: 'x' },
        { carrier: 'DHL', trackingNumber: 'x', trackingUrl: 'javascript:x' },
      ],
    ],
    ['POST', `${f}/handoff`, [{ notifyCustomer: null }, { notifyCustomer: true, shippedAt: 12 }]],
    ['POST', `${f}/deliver`, [{ deliveredAt: 'not a date' }, { deliveredAt: '2999-01-01T00:00:00Z' }]],
    ['POST', `${f}/cancel`, [{ reason: '   ' }, { reason: 'x'.repeat(501) }]],
    ['POST', `${o}/fulfillments/${t.fulfillmentId}/cancel-prepared-shipment`, [{ reason: 5 }]],
    [
      'POST',
      `${o}/fulfillments/${t.fulfillmentId}/cancel-prepared-shipment/carrier-check`,
      [{ force: true }],
    ],
    [
      'POST',
      `${o}/fulfillments/${t.fulfillmentId}/retired-postage-acknowledgement`,
      [{ reason: 'x', acknowledge: false }, { acknowledge: true }],
    ],
    [
      'POST',
      `${o}/shipping-label/quote`,
      [{ ...lines(1), package: { loadedWeightGrams: -1 }, carrier: 'sandbox', service: 'GROUND' }],
    ],
    [
      'POST',
      `${o}/shipping-label`,
      [
        {
          ...lines(1),
          package: { lengthMm: 1, widthMm: 1, heightMm: 1, loadedWeightGrams: 1 },
          carrier: 'sandbox',
          service: 'GROUND',
          selectionQuoteFingerprint: 'sqf1_x',
          acknowledgements: ['NOT_A_CODE'],
        },
      ],
    ],
    ['POST', `${o}/shipping-label/purchases/lbp_unknown/reconcile`, [{ now: true }]],
    ['PATCH', `${o}/tracking`, [{}, { carrier: 7 }, { expectedFulfillmentId: `ful_${'x'.repeat(500)}` }]],
    ['PUT', `${o}/shipping-address`, [{ name: 'A', line1: '1', city: 'c', postalCode: '1', country: 'ZZZ' }]],
    ['POST', `${o}/shipping-package/recommendation`, [lines(1001 * 1000)]],
    ['POST', '/merchant/shipping/warehouse-outputs/csv-export', [{ fulfillmentIds: [{}] }]],
    ['POST', '/merchant/shipping/warehouse-outputs/labels-pdf', [{ fulfillmentIds: [t.fulfillmentId, 7] }]],
  ];
};

/** Invalid on every route: not an object, or an object with a key no route knows. */
const NEVER_VALID: unknown[] = [null, [], 'x', 42, { notAField: 1 }];

describe('hostile bodies on the fulfillment routes, at ids that exist', () => {
  it('answer the error envelope, 400 VALIDATION_FAILED for what is not a body, never a 500, and change nothing', async () => {
    const before = await snapshot();
    for (const [method, path, garbage] of routes(target)) {
      const send = (body: unknown) =>
        shop.call('owner', method, path, body, { 'x-idempotency-key': newKey() });
      for (const body of NEVER_VALID) {
        const response = await send(body);
        const what = `${method} ${path} ${JSON.stringify(body)}`;
        expect(response.status, what).toBe(400);
        expect((await errorOf(response)).code, what).toBe('VALIDATION_FAILED');
      }
      for (const body of garbage) {
        const response = await send(body);
        const what = `${method} ${path} ${JSON.stringify(body).slice(0, 200)}`;
        expect(response.status, `${what}: ${await response.clone().text()}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${what}: ${await response.clone().text()}`).toBeLessThan(500);
        const error = await errorOf(response);
        expect(error.code, what).toMatch(/^[A-Z_]+$/);
      }
      // Raw text that is not JSON at all.
      const raw = await h.app.request(`/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${shop.users.owner.token}`,
          'x-organization-slug': shop.slug,
          'content-type': 'application/json',
          'x-idempotency-key': newKey(),
        },
        body: '{"lines": [',
      });
      expect(raw.status, `${method} ${path} raw`).toBe(400);
      await errorOf(raw);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('a non-PRODUCT line over HTTP', () => {
  it('is 400 VALIDATION_FAILED at its path on direct, planned, quote and purchase bodies', async () => {
    const fee = newId('sli', h.clock.now());
    await h.database.db
      .insertInto('sales_record_lines')
      .values({
        organization_id: shop.organizationId,
        id: fee,
        sales_record_id: target.recordId,
        position: 99,
        type: 'FEE',
        item_id: null,
        variant_id: null,
        name: 'Handling',
        quantity: 1,
        unit_price_in_cents: 50,
        total_in_cents: 50,
        created_at: h.clock.now(),
      })
      .execute();
    const lines = [
      { lineId: target.lineId, quantity: 1 },
      { lineId: fee, quantity: 1 },
    ];
    const label = {
      lines,
      package: { lengthMm: 100, widthMm: 100, heightMm: 100, loadedWeightGrams: 500 },
      carrier: 'sandbox',
      service: 'GROUND',
    };
    const before = await snapshot();
    for (const [path, body] of [
      [`/merchant/commerce/orders/${target.recordId}/fulfillments`, { lines, notifyCustomer: true }],
      [`/merchant/commerce/orders/${target.orderId}/planned-fulfillments`, { lines }],
      [`/merchant/orders/${target.orderId}/shipping-label/quote`, label],
      [
        `/merchant/orders/${target.recordId}/shipping-label`,
        { ...label, selectionQuoteFingerprint: 'sqf1_x' },
      ],
    ] as const) {
      const response = await shop.call('owner', 'POST', path, body, { 'x-idempotency-key': newKey() });
      expect(response.status, path).toBe(400);
      const error = await errorOf(response);
      expect(error.code, path).toBe('VALIDATION_FAILED');
      expect(
        error.details?.issues?.map((issue) => issue.path),
        path,
      ).toEqual(['lines.1.lineId']);
    }
    expect(await snapshot()).toEqual(before);
  });
});

/** Everything the fulfillment routes write for the target's organization. */
async function snapshot() {
  const db = h.database.db;
  const organizationId = shop.organizationId;
  const [fulfillments, lines, purchases, cancellations, outbox, audits] = await Promise.all([
    db
      .selectFrom('fulfillments')
      .select(['id', 'status', 'version'])
      .where('organization_id', '=', organizationId)
      .execute(),
    db
      .selectFrom('sales_record_lines')
      .select(['id', 'shipped_quantity', 'allocated_quantity'])
      .where('organization_id', '=', organizationId)
      .execute(),
    db.selectFrom('label_purchases').select('id').where('organization_id', '=', organizationId).execute(),
    db
      .selectFrom('shipment_cancellations')
      .select('id')
      .where('organization_id', '=', organizationId)
      .execute(),
    db.selectFrom('outbox').select('id').where('organization_id', '=', organizationId).execute(),
    db.selectFrom('audit_logs').select('id').where('organization_id', '=', organizationId).execute(),
  ]);
  return { fulfillments, lines, purchases, cancellations, outbox, audits };
}
