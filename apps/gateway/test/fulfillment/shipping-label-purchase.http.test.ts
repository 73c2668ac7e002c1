import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createLabelShop, type LabelShop, newKey, ok, purchaseBody } from '../support/label-fixture.ts';
import { type Actor, createRoleFixture } from '../support/roles.ts';

interface Purchase {
  id: string;
  status: string;
  failure: string | null;
  fulfillmentId: string | null;
  trackingNumber: string | null;
  reconciliation: { status: string; allowed: boolean; outcome: string | null };
}
interface Fulfillment {
  id: string;
  status: string;
  origin: string;
  postage: { source: string; status: string; labelAvailable: boolean; purchaseId: string } | null;
}

let h: Harness;
let shop: LabelShop;
let other: LabelShop;

const base = (orderId: string) => `/merchant/orders/${orderId}/shipping-label`;
const setBehaviours = async (s: LabelShop, behaviours: Record<string, string>) =>
  ok(await s.fixture.call('owner', 'PATCH', '/merchant/shipping/sandbox-carrier', { behaviours }));

beforeAll(async () => {
  h = await createHarness();
  shop = await createLabelShop(h, await createRoleFixture(h, 'label-buy', ['fulfillment:operate']));
  other = await createLabelShop(h, await createRoleFixture(h, 'label-buy-other', ['fulfillment:operate']));
});
afterAll(async () => {
  await h.close();
});

describe('POST /merchant/orders/{orderId}/shipping-label', () => {
  it('201 { purchase, fulfillment } for fulfillment:operate; the same key replays it; reads list and show it', async () => {
    const order = await shop.newOrder();
    const key = newKey();
    const body = await purchaseBody(shop.fixture, order);
    const response = await shop.fixture.call('staffWith', 'POST', base(order.id), body, {
      'x-idempotency-key': key,
    });
    const bought = await ok<{ purchase: Purchase; fulfillment: Fulfillment }>(response, 201);
    expect(bought.purchase).toMatchObject({
      status: 'PURCHASED',
      fulfillmentId: bought.fulfillment.id,
      reconciliation: { status: 'NOT_REQUIRED', allowed: false },
    });
    expect(bought.fulfillment).toMatchObject({
      status: 'READY',
      origin: 'NATIVE_LABEL',
      postage: { source: 'NATIVE', status: 'ACTIVE', labelAvailable: true, purchaseId: bought.purchase.id },
    });
    const replay = await shop.fixture.call('owner', 'POST', base(order.salesRecordId), body, {
      'x-idempotency-key': key,
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await ok<{ purchase: Purchase }>(replay, 201)).purchase.id).toBe(bought.purchase.id);
    const account = await ok<{ purchaseCount: number }>(
      await shop.fixture.call('owner', 'GET', '/merchant/shipping/sandbox-carrier'),
    );
    expect(account.purchaseCount).toBe(1);

    const list = await ok<{ data: Purchase[]; nextCursor: string | null }>(
      await shop.fixture.call('staffWithout', 'GET', `${base(order.id)}/purchases?limit=10`),
    );
    expect(list).toMatchObject({ data: [{ id: bought.purchase.id }], nextCursor: null });
    const shown = await ok<Purchase>(
      await shop.fixture.call(
        'staffWithout',
        'GET',
        `${base(order.salesRecordId)}/purchases/${bought.purchase.id}`,
      ),
    );
    expect(shown.trackingNumber).toBe(bought.purchase.trackingNumber);
    const fulfillment = await ok<Fulfillment>(
      await shop.fixture.call(
        'staffWithout',
        'GET',
        `/merchant/commerce/orders/${order.salesRecordId}/fulfillments/${bought.fulfillment.id}`,
      ),
    );
    expect(fulfillment.postage).toMatchObject({ source: 'NATIVE', status: 'ACTIVE' });
  });

  it('400 without a key, with unknown acknowledgements or keys; 409 for a stale fingerprint or missing acknowledgements', async () => {
    const order = await shop.newOrder();
    const body = await purchaseBody(shop.fixture, order);
    await expectError(
      await shop.fixture.call('owner', 'POST', base(order.id), body),
      400,
      'VALIDATION_FAILED',
    );
    for (const changes of [{ acknowledgements: ['SOMETHING'] }, { surprise: 1 }, { reason: '' }])
      await expectError(
        await shop.fixture.call(
          'owner',
          'POST',
          base(order.id),
          { ...body, ...changes },
          {
            'x-idempotency-key': newKey(),
          },
        ),
        400,
        'VALIDATION_FAILED',
      );
    const stale = await shop.fixture.call(
      'owner',
      'POST',
      base(order.id),
      { ...body, selectionQuoteFingerprint: 'sqf1_stale' },
      { 'x-idempotency-key': newKey() },
    );
    const mismatch = await expectError(stale, 409, 'QUOTE_FINGERPRINT_MISMATCH');
    expect(mismatch.details).toMatchObject({ quote: { chargeInCents: 680 } });
    const missing = await expectError(
      await shop.fixture.call(
        'owner',
        'POST',
        base(order.id),
        { ...body, acknowledgements: [], reason: undefined },
        { 'x-idempotency-key': newKey() },
      ),
      409,
      'LABEL_ACKNOWLEDGEMENT_REQUIRED',
    );
    expect(missing.details).toMatchObject({
      missing: ['PACKAGE_OVERRIDE', 'CHARGE_EXCEEDS_COLLECTED_SHIPPING', 'reason'],
    });
    await expectError(
      await shop.fixture.call('owner', 'POST', base(other.fixture.slug), body, {
        'x-idempotency-key': newKey(),
      }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('502 PROVIDER_ERROR on a refusal and 503 PROVIDER_UNAVAILABLE when not sent, each with the purchase', async () => {
    const order = await shop.newOrder();
    const body = await purchaseBody(shop.fixture, order);
    await setBehaviours(shop, { purchase: 'DECLINED' });
    const declined = await expectError(
      await shop.fixture.call('owner', 'POST', base(order.id), body, { 'x-idempotency-key': newKey() }),
      502,
      'PROVIDER_ERROR',
    );
    expect(declined.details).toMatchObject({ providerCode: 'DECLINED' });
    await setBehaviours(shop, { purchase: 'UNAVAILABLE' });
    const unavailable = await expectError(
      await shop.fixture.call('owner', 'POST', base(order.id), body, { 'x-idempotency-key': newKey() }),
      503,
      'PROVIDER_UNAVAILABLE',
    );
    expect(unavailable.details).toHaveProperty('purchaseId');
    const failed = await ok<Purchase>(
      await shop.fixture.call(
        'owner',
        'GET',
        `${base(order.id)}/purchases/${(unavailable.details as { purchaseId: string }).purchaseId}`,
      ),
    );
    expect(failed).toMatchObject({ status: 'FAILED', failure: 'NOT_SENT' });
    await setBehaviours(shop, { purchase: 'OK' });
  });

  it('503 LABEL_PURCHASE_UNCERTAIN; same key 503, another 409 UNSETTLED; reconcile 200, then 409; the key then replays 201', async () => {
    const order = await shop.newOrder();
    const body = await purchaseBody(shop.fixture, order);
    const key = newKey();
    await setBehaviours(shop, { purchase: 'TIMEOUT_COMMITTED' });
    const uncertain = await expectError(
      await shop.fixture.call('owner', 'POST', base(order.id), body, { 'x-idempotency-key': key }),
      503,
      'LABEL_PURCHASE_UNCERTAIN',
    );
    const { purchaseId } = uncertain.details as { purchaseId: string };
    expect(uncertain.details).toMatchObject({ reconciliation: { status: 'ALLOWED', allowed: true } });
    await setBehaviours(shop, { purchase: 'OK' });
    await expectError(
      await shop.fixture.call('owner', 'POST', base(order.id), body, { 'x-idempotency-key': key }),
      503,
      'LABEL_PURCHASE_UNCERTAIN',
    );
    const unsettled = await expectError(
      await shop.fixture.call('owner', 'POST', base(order.id), body, { 'x-idempotency-key': newKey() }),
      409,
      'LABEL_PURCHASE_UNSETTLED',
    );
    expect(unsettled.details).toEqual({ purchaseId });

    const reconcile = `${base(order.id)}/purchases/${purchaseId}/reconcile`;
    await expectError(await shop.fixture.call('staffWithout', 'POST', reconcile, {}), 403, 'FORBIDDEN');
    const reconciled = await ok<{ purchase: Purchase; fulfillment: Fulfillment }>(
      await shop.fixture.call('staffWith', 'POST', reconcile, {}),
    );
    expect(reconciled.purchase).toMatchObject({
      status: 'PURCHASED',
      reconciliation: { status: 'RESOLVED', outcome: 'PURCHASED' },
    });
    expect(reconciled.fulfillment.status).toBe('READY');
    await expectError(await shop.fixture.call('owner', 'POST', reconcile, {}), 409, 'RECONCILE_NOT_ALLOWED');
    const replay = await shop.fixture.call('owner', 'POST', base(order.id), body, {
      'x-idempotency-key': key,
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await ok<{ purchase: Purchase }>(replay, 201)).purchase.id).toBe(purchaseId);
  });

  it('is 403 without fulfillment:operate and 401 without a credential; reads are any member’s; foreign ids are 404', async () => {
    const order = await shop.newOrder();
    const body = await purchaseBody(shop.fixture, order);
    for (const actor of ['staffWithout', 'outsider'] as Actor[])
      await expectError(
        await shop.fixture.call(actor, 'POST', base(order.id), body, { 'x-idempotency-key': newKey() }),
        403,
        'FORBIDDEN',
      );
    await expectError(
      await shop.fixture.call('anonymous', 'GET', `${base(order.id)}/purchases`),
      401,
      'UNAUTHENTICATED',
    );
    await expectError(
      await shop.fixture.call('outsider', 'GET', `${base(order.id)}/purchases`),
      403,
      'FORBIDDEN',
    );
    const bought = await ok<{ purchase: Purchase }>(
      await shop.fixture.call('owner', 'POST', base(order.id), body, { 'x-idempotency-key': newKey() }),
      201,
    );
    const foreignOrder = await other.newOrder();
    for (const path of [
      `${base(foreignOrder.id)}/purchases/${bought.purchase.id}`,
      `${base(order.id)}/purchases/lbp_unknown`,
    ])
      await expectError(await other.fixture.call('owner', 'GET', path), 404, 'RESOURCE_NOT_FOUND');
    await expectError(
      await other.fixture.call('owner', 'GET', `${base(order.id)}/purchases`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await other.fixture.call(
        'owner',
        'POST',
        `${base(foreignOrder.id)}/purchases/${bought.purchase.id}/reconcile`,
        {},
      ),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});
