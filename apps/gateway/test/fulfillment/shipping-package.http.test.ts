import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../support/catalog-fixture.ts';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { placeGuestOrder } from '../support/orders.ts';
import {
  ACTORS,
  createRoleFixture,
  expectedStatus,
  MEMBER_ACTORS,
  type RoleFixture,
} from '../support/roles.ts';

interface Order {
  id: string;
  salesRecordId: string;
  items: { id: string; type: string; quantity: number }[];
}

interface Recommendation {
  recommendation: { boxPresetId: string; proof: string; loadedWeightGrams: number } | null;
  reason: string | null;
  missing: { lineId: string; fields: string[] }[];
  unitCount: number;
  catalogWeightGrams: number | null;
  evaluatedPresetCount: number;
}

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let order: Order;
let otherOrder: Order;
let boxId: string;

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

const newItem = (fixture: RoleFixture, body: Record<string, unknown>): Promise<string> =>
  createItem(fixture, { status: 'ACTIVE', ...body });

const path = (id: string) => `/merchant/orders/${id}/shipping-package/recommendation`;

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'pkg-shop', ['fulfillment:operate']);
  other = await createRoleFixture(h, 'pkg-other', []);
  const mug = await newItem(shop, {
    slug: 'mug',
    name: 'Mug',
    type: 'SALE',
    shippingWeightGrams: 400,
    shippingLengthMm: 120,
    shippingWidthMm: 90,
    shippingHeightMm: 100,
  });
  const lesson = await newItem(shop, { slug: 'lesson', name: 'Lesson', type: 'SERVICE' });
  order = await placeGuestOrder<Order>(h, shop, [
    { itemId: mug, variantId: null, name: 'Mug', quantity: 2, unitPriceInCents: 1200 },
    { itemId: lesson, variantId: null, name: 'Lesson', quantity: 1, unitPriceInCents: 5000 },
  ]);
  const otherItem = await newItem(other, { slug: 'cup', name: 'Cup', type: 'SALE' });
  otherOrder = await placeGuestOrder<Order>(h, other, [
    { itemId: otherItem, variantId: null, name: 'Cup', quantity: 1, unitPriceInCents: 900 },
  ]);
  boxId = (
    await ok<{ id: string }>(
      await shop.call('owner', 'POST', '/merchant/shipping/box-presets', {
        name: 'Mug box',
        innerLengthMm: 250,
        innerWidthMm: 100,
        innerHeightMm: 120,
        tareWeightGrams: 150,
        maxLoadGrams: 2000,
      }),
      201,
    )
  ).id;
});
afterAll(async () => {
  await h.close();
});

describe('shipping package recommendation over HTTP', () => {
  it("recommends for the order's PRODUCT units by order id or sales record id, with or without a body", async () => {
    const withoutBody = await ok<Recommendation>(
      await h.app.request(`/api/v1${path(order.id)}`, {
        method: 'POST',
        headers: { 'x-organization-slug': shop.slug, authorization: `Bearer ${shop.users.owner.token}` },
      }),
      200,
    );
    expect(withoutBody).toEqual({
      recommendation: expect.objectContaining({ boxPresetId: boxId, proof: 'GRID', loadedWeightGrams: 950 }),
      reason: null,
      missing: [],
      unitCount: 2,
      catalogWeightGrams: 800,
      evaluatedPresetCount: 1,
    });
    const byRecord = await ok<Recommendation>(
      await shop.call('staffWithout', 'POST', path(order.salesRecordId), {}),
      200,
    );
    expect(byRecord).toEqual(withoutBody);
    const mugLine = order.items.find((line) => line.type === 'PRODUCT')!;
    const one = await ok<Recommendation>(
      await shop.call('owner', 'POST', path(order.id), { lines: [{ lineId: mugLine.id, quantity: 1 }] }),
      200,
    );
    expect(one).toMatchObject({
      unitCount: 1,
      recommendation: { proof: 'SINGLE_UNIT', loadedWeightGrams: 550 },
    });
  });

  it('answers bad bodies with 400 VALIDATION_FAILED naming the field', async () => {
    const mugLine = order.items.find((line) => line.type === 'PRODUCT')!;
    const serviceLine = order.items.find((line) => line.type === 'SERVICE')!;
    const cases: [unknown, string][] = [
      [{ lines: [] }, 'lines'],
      [{ lines: [{ lineId: mugLine.id, quantity: 0 }] }, 'lines.0.quantity'],
      [{ lines: [{ lineId: mugLine.id, quantity: -1 }] }, 'lines.0.quantity'],
      [{ lines: [{ lineId: mugLine.id, quantity: 1.5 }] }, 'lines.0.quantity'],
      [{ lines: [{ lineId: mugLine.id, quantity: 100_001 }] }, 'lines.0.quantity'],
      [{ lines: [{ lineId: mugLine.id, quantity: 3 }] }, 'lines.0.quantity'],
      [
        {
          lines: [
            { lineId: mugLine.id, quantity: 1 },
            { lineId: mugLine.id, quantity: 1 },
          ],
        },
        'lines.1.lineId',
      ],
      [{ lines: [{ lineId: serviceLine.id, quantity: 1 }] }, 'lines.0.lineId'],
      [{ lines: [{ lineId: otherOrder.items[0]!.id, quantity: 1 }] }, 'lines.0.lineId'],
      [{ lines: [{ lineId: mugLine.id }] }, 'lines.0.quantity'],
      [
        { lines: Array.from({ length: 101 }, (_, index) => ({ lineId: `sli_${index}`, quantity: 1 })) },
        'lines',
      ],
      [{ boxes: [] }, ''],
    ];
    for (const [body, issuePath] of cases) {
      const error = await expectError(
        await shop.call('owner', 'POST', path(order.id), body),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        error.details?.issues?.map((issue) => issue.path),
        JSON.stringify(body).slice(0, 120),
      ).toContain(issuePath);
    }
  });

  it('lets every member ask, and answers foreign, unknown and malformed ids with the neutral 404', async () => {
    for (const actor of ACTORS) {
      const response = await shop.call(actor, 'POST', path(order.id), {});
      expect(response.status, actor).toBe(expectedStatus(actor, MEMBER_ACTORS, 200));
    }
    const bodies: object[] = [];
    for (const id of [otherOrder.id, otherOrder.salesRecordId, 'ord_unknown', 'sal_unknown', 'box_x']) {
      const error = await expectError(
        await shop.call('owner', 'POST', path(id), {}),
        404,
        'RESOURCE_NOT_FOUND',
      );
      bodies.push({ ...error, requestId: '' });
    }
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
  });

  it('is in the OpenAPI document with its body, answer, security and error codes', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, unknown>; security: unknown[]; requestBody?: unknown }>
      >;
    };
    const operation = document.paths['/merchant/orders/{id}/shipping-package/recommendation']?.post;
    expect(operation).toBeDefined();
    expect(Object.keys(operation!.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404']),
    );
    expect(operation!.security).toEqual([{ BearerAuth: [], OrganizationSlug: [] }]);
    expect(JSON.stringify(operation!.requestBody)).toContain('lineId');
    expect(JSON.stringify(operation!.responses['200'])).toContain('ShippingPackageRecommendation');
  });
});
