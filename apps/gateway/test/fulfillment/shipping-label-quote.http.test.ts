import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createLabelShop, type LabelOrder as Order, ok } from '../support/label-fixture.ts';
import { type Actor, createRoleFixture, type RoleFixture } from '../support/roles.ts';

interface Quote {
  selectionQuoteFingerprint: string | null;
  chargeInCents: number | null;
  billableWeightGrams: number | null;
  funding: { status: string; balanceInCents: number | null; availableInCents: number | null };
  decision: { classification: string; acknowledgementsRequired: string[]; blockers: { code: string }[] };
}

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let order: Order;
let otherOrder: Order;

/** A shop that ships mugs (a ship-from address) and an order of two with a ship-to. */
const setUp = async (fixture: RoleFixture): Promise<Order> => (await createLabelShop(h, fixture)).newOrder();

const path = (id: string) => `/merchant/orders/${id}/shipping-label/quote`;
const body = (o: Order, changes: Record<string, unknown> = {}) => ({
  lines: [{ lineId: o.items[0]!.id, quantity: 2 }],
  package: { lengthMm: 300, widthMm: 200, heightMm: 100, loadedWeightGrams: 900 },
  carrier: 'sandbox',
  service: 'GROUND',
  ...changes,
});

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'label-shop', ['fulfillment:operate']);
  other = await createRoleFixture(h, 'label-other', ['fulfillment:operate']);
  order = await setUp(shop);
  otherOrder = await setUp(other);
});
afterAll(async () => {
  await h.close();
});

describe('POST /merchant/orders/{orderId}/shipping-label/quote', () => {
  it('quotes the worked example by either id with the same fingerprint, for those with fulfillment:operate', async () => {
    const byOrder = await ok<Quote>(await shop.call('staffWith', 'POST', path(order.id), body(order)));
    expect(byOrder).toMatchObject({
      chargeInCents: 680,
      billableWeightGrams: 1200,
      funding: { status: 'SUFFICIENT', balanceInCents: 10_000, availableInCents: 10_000 },
      // The order collected no shipping (680 is over 3 × 0: high risk); custom dimensions are an override.
      decision: {
        classification: 'HIGH_RISK',
        acknowledgementsRequired: ['PACKAGE_OVERRIDE', 'CHARGE_EXCEEDS_COLLECTED_SHIPPING'],
        blockers: [],
      },
    });
    expect(byOrder.selectionQuoteFingerprint).toMatch(/^sqf1_[A-Za-z0-9_-]{43}$/);
    const byRecord = await ok<Quote>(
      await shop.call('owner', 'POST', path(order.salesRecordId), body(order)),
    );
    expect(byRecord.selectionQuoteFingerprint).toBe(byOrder.selectionQuoteFingerprint);
  });

  it('answers a route refusal as a blocker in a 200', async () => {
    await h.database.db
      .updateTable('sales_records')
      .set({
        shipping_address: JSON.stringify({
          name: 'Ada',
          line1: '1 Rue',
          city: 'Paris',
          postalCode: '75001',
          country: 'FR',
        }),
      })
      .where('id', '=', otherOrder.salesRecordId)
      .execute();
    const abroad = await ok<Quote>(
      await other.call('owner', 'POST', path(otherOrder.id), body(otherOrder, { service: 'OVERNIGHT' })),
    );
    expect(abroad).toMatchObject({
      selectionQuoteFingerprint: null,
      chargeInCents: null,
      decision: { classification: 'BLOCKED', blockers: [{ code: 'SERVICE_UNAVAILABLE' }] },
    });
  });

  it('is 400 for bodies out of bounds, unknown carriers and keys; 404 for unknown and foreign orders', async () => {
    const bad: Record<string, unknown>[] = [
      { carrier: 'ups' },
      { service: 'FREIGHT' },
      { package: { lengthMm: 3001, widthMm: 1, heightMm: 1, loadedWeightGrams: 1 } },
      { package: { lengthMm: 300, widthMm: 200, heightMm: 100, loadedWeightGrams: 150_001 } },
      { package: { boxPresetId: 'box_unknown', loadedWeightGrams: 900 } },
      { lines: [] },
      { lines: [{ lineId: 'sli_x', quantity: 1 }] },
      { surprise: true },
    ];
    for (const changes of bad)
      await expectError(
        await shop.call('owner', 'POST', path(order.id), body(order, changes)),
        400,
        'VALIDATION_FAILED',
      );
    await expectError(
      await shop.call('owner', 'POST', path('ord_unknown'), body(order)),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await shop.call('owner', 'POST', path(otherOrder.id), body(order)),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('needs fulfillment:operate', async () => {
    for (const actor of ['staffWithout', 'outsider'] as Actor[])
      await expectError(await shop.call(actor, 'POST', path(order.id), body(order)), 403, 'FORBIDDEN');
    await expectError(
      await shop.call('anonymous', 'POST', path(order.id), body(order)),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('is 503 PROVIDER_UNAVAILABLE while the carrier cannot rate', async () => {
    await ok(
      await shop.call('owner', 'PATCH', '/merchant/shipping/sandbox-carrier', {
        behaviours: { rate: 'UNAVAILABLE' },
      }),
    );
    await expectError(
      await shop.call('owner', 'POST', path(order.id), body(order)),
      503,
      'PROVIDER_UNAVAILABLE',
    );
    await ok(
      await shop.call('owner', 'PATCH', '/merchant/shipping/sandbox-carrier', { behaviours: { rate: 'OK' } }),
    );
  });
});

describe('GET /merchant/shipping/postage-balance', () => {
  it('reads the balance for any member; 503 while the carrier cannot answer', async () => {
    const balance = await ok<Record<string, unknown>>(
      await shop.call('staffWithout', 'GET', '/merchant/shipping/postage-balance'),
    );
    expect(balance).toMatchObject({
      carrier: 'sandbox',
      fundingModel: 'PREPAID_BALANCE',
      balanceInCents: 10_000,
      openClaimsInCents: 0,
      availableInCents: 10_000,
      currency: 'USD',
      autoTopUp: false,
    });
    await ok(
      await other.call('owner', 'PATCH', '/merchant/shipping/sandbox-carrier', {
        behaviours: { balance: 'UNAVAILABLE' },
      }),
    );
    await expectError(
      await other.call('owner', 'GET', '/merchant/shipping/postage-balance'),
      503,
      'PROVIDER_UNAVAILABLE',
    );
    await expectError(
      await shop.call('outsider', 'GET', '/merchant/shipping/postage-balance'),
      403,
      'FORBIDDEN',
    );
  });
});
