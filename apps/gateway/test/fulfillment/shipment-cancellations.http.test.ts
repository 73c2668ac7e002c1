import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createLabelShop, type LabelShop, newKey, ok, purchaseBody } from '../support/label-fixture.ts';
import { type Actor, createRoleFixture } from '../support/roles.ts';

interface Fulfillment {
  id: string;
  status: string;
  postage: { source: string; status: string; trackingNumber: string } | null;
  retiredPostage: { status: string; retirementEvidence: Record<string, unknown> | null }[];
  cancellation: { id: string; status: string; evidence: { source: string } | null } | null;
}

let h: Harness;
let shop: LabelShop;
let other: LabelShop;

const fulfillmentPath = (orderId: string, fulfillmentId: string) =>
  `/merchant/orders/${orderId}/fulfillments/${fulfillmentId}`;
const setBehaviours = async (s: LabelShop, behaviours: Record<string, string>) =>
  ok(await s.fixture.call('owner', 'PATCH', '/merchant/shipping/sandbox-carrier', { behaviours }));

/** A new order whose READY fulfillment has a native label. */
async function labelled(s: LabelShop) {
  const order = await s.newOrder();
  const bought = await ok<{ fulfillment: Fulfillment }>(
    await s.fixture.call(
      'owner',
      'POST',
      `/merchant/orders/${order.id}/shipping-label`,
      await purchaseBody(s.fixture, order),
      {
        'x-idempotency-key': newKey(),
      },
    ),
    201,
  );
  return { order, fulfillment: bought.fulfillment };
}

beforeAll(async () => {
  h = await createHarness();
  shop = await createLabelShop(h, await createRoleFixture(h, 'label-void', ['fulfillment:operate']));
  other = await createLabelShop(h, await createRoleFixture(h, 'label-void-other', ['fulfillment:operate']));
});
afterAll(async () => {
  await h.close();
});

describe('POST …/fulfillments/{fulfillmentId}/cancel-prepared-shipment', () => {
  it('200 with the voided postage retired; a keyed repeat replays; handoff is then 409 HANDOFF_BLOCKED POSTAGE_RETIRED', async () => {
    const { order, fulfillment } = await labelled(shop);
    const path = `${fulfillmentPath(order.id, fulfillment.id)}/cancel-prepared-shipment`;
    const key = newKey();
    const voided = await ok<Fulfillment>(
      await shop.fixture.call(
        'staffWith',
        'POST',
        path,
        { reason: 'Wrong box' },
        { 'x-idempotency-key': key },
      ),
    );
    expect(voided).toMatchObject({
      status: 'READY',
      postage: null,
      cancellation: { status: 'VOIDED', evidence: { source: 'VOID_RESPONSE' } },
    });
    expect(voided.retiredPostage[0]).toMatchObject({ status: 'VOIDED' });
    const replay = await shop.fixture.call(
      'owner',
      'POST',
      path,
      { reason: 'Wrong box' },
      { 'x-idempotency-key': key },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await ok<Fulfillment>(replay)).cancellation?.id).toBe(voided.cancellation!.id);
    await expectError(
      await shop.fixture.call('owner', 'POST', path, { reason: 'Other' }, { 'x-idempotency-key': key }),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );
    const handoff = await expectError(
      await shop.fixture.call(
        'owner',
        'POST',
        `/merchant/commerce/orders/${order.salesRecordId}/fulfillments/${fulfillment.id}/handoff`,
        { notifyCustomer: false },
      ),
      409,
      'HANDOFF_BLOCKED',
    );
    expect(handoff.details).toEqual({ reason: 'POSTAGE_RETIRED' });
    // Voided: nothing left to void.
    await expectError(await shop.fixture.call('owner', 'POST', path, {}), 409, 'INVALID_STATE_TRANSITION');
  });

  it('a pending void blocks handoff (VOID_PENDING) and a repeat sends nothing', async () => {
    const { order, fulfillment } = await labelled(shop);
    await setBehaviours(shop, { void: 'PENDING' });
    const path = `${fulfillmentPath(order.salesRecordId, fulfillment.id)}/cancel-prepared-shipment`;
    const first = await ok<Fulfillment>(await shop.fixture.call('owner', 'POST', path, {}));
    expect(first).toMatchObject({ postage: { status: 'VOID_PENDING' }, cancellation: { status: 'PENDING' } });
    const again = await ok<Fulfillment>(await shop.fixture.call('owner', 'POST', path, {}));
    expect(again.cancellation?.id).toBe(first.cancellation!.id);
    const account = await ok<{ labels: { trackingNumber: string; voidRequestCount: number }[] }>(
      await shop.fixture.call('owner', 'GET', '/merchant/shipping/sandbox-carrier'),
    );
    expect(
      account.labels.find((label) => label.trackingNumber === first.postage!.trackingNumber),
    ).toMatchObject({
      voidRequestCount: 1,
    });
    const handoff = await expectError(
      await shop.fixture.call(
        'owner',
        'POST',
        `/merchant/commerce/orders/${order.salesRecordId}/fulfillments/${fulfillment.id}/handoff`,
        { notifyCustomer: false },
      ),
      409,
      'HANDOFF_BLOCKED',
    );
    expect(handoff.details).toEqual({ reason: 'VOID_PENDING' });
    // Not exhausted: no carrier check yet.
    const check = await expectError(
      await shop.fixture.call('owner', 'POST', `${path}/carrier-check`, {}),
      409,
      'CARRIER_CHECK_NOT_ALLOWED',
    );
    expect(check.details).toEqual({ status: 'PENDING', allowedAfter: null });
    await setBehaviours(shop, { void: 'VOIDED' });
  });

  it('409 POSTAGE_NOT_VOIDABLE for external postage; 400 for unknown keys; 404 for foreign ids; 403 without fulfillment:operate', async () => {
    const order = await shop.newOrder();
    const plan = await ok<{ id: string }>(
      await shop.fixture.call(
        'owner',
        'POST',
        `/merchant/commerce/orders/${order.id}/planned-fulfillments`,
        { lines: [{ lineId: order.items[0]!.id, quantity: 1 }] },
        { 'x-idempotency-key': newKey() },
      ),
      201,
    );
    await ok(
      await shop.fixture.call(
        'owner',
        'POST',
        `/merchant/commerce/orders/${order.id}/fulfillments/${plan.id}/external-postage`,
        {
          carrier: 'Other Post',
          trackingNumber: 'OP1',
        },
      ),
    );
    const path = `${fulfillmentPath(order.id, plan.id)}/cancel-prepared-shipment`;
    const refused = await expectError(
      await shop.fixture.call('owner', 'POST', path, {}),
      409,
      'POSTAGE_NOT_VOIDABLE',
    );
    expect(refused.details).toEqual({ reason: 'NOT_NATIVE' });
    await expectError(
      await shop.fixture.call('owner', 'POST', path, { surprise: 1 }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(await other.fixture.call('owner', 'POST', path, {}), 404, 'RESOURCE_NOT_FOUND');
    for (const actor of ['staffWithout', 'outsider'] as Actor[])
      await expectError(await shop.fixture.call(actor, 'POST', path, {}), 403, 'FORBIDDEN');
    await expectError(await shop.fixture.call('anonymous', 'POST', path, {}), 401, 'UNAUTHENTICATED');
  });
});

describe('POST …/retired-postage-acknowledgement and …/carrier-check', () => {
  it('Owner or Admin only (Staff 403 whatever its groups); retires external postage; native is 409 POSTAGE_NOT_RETIRABLE', async () => {
    const order = await shop.newOrder();
    const plan = await ok<{ id: string }>(
      await shop.fixture.call(
        'owner',
        'POST',
        `/merchant/commerce/orders/${order.id}/planned-fulfillments`,
        { lines: [{ lineId: order.items[0]!.id, quantity: 1 }] },
        { 'x-idempotency-key': newKey() },
      ),
      201,
    );
    await ok(
      await shop.fixture.call(
        'owner',
        'POST',
        `/merchant/commerce/orders/${order.id}/fulfillments/${plan.id}/external-postage`,
        {
          carrier: 'Other Post',
          trackingNumber: 'OP2',
        },
      ),
    );
    const path = `${fulfillmentPath(order.id, plan.id)}/retired-postage-acknowledgement`;
    const body = { reason: 'Label lost', acknowledge: true };
    for (const actor of ['staffWith', 'staffWithout'] as Actor[]) {
      await expectError(await shop.fixture.call(actor, 'POST', path, body), 403, 'FORBIDDEN');
      await expectError(
        await shop.fixture.call(
          actor,
          'POST',
          `${fulfillmentPath(order.id, plan.id)}/cancel-prepared-shipment/carrier-check`,
          {},
        ),
        403,
        'FORBIDDEN',
      );
    }
    for (const bad of [{ reason: 'x', acknowledge: false }, { acknowledge: true }, { ...body, reason: ' ' }])
      await expectError(await shop.fixture.call('admin', 'POST', path, bad), 400, 'VALIDATION_FAILED');
    const retired = await ok<Fulfillment>(await shop.fixture.call('admin', 'POST', path, body));
    expect(retired).toMatchObject({ status: 'READY', postage: null });
    expect(retired.retiredPostage[0]).toMatchObject({
      status: 'RETIRED',
      retirementEvidence: { source: 'MERCHANT_ACKNOWLEDGEMENT', reason: 'Label lost' },
    });
    await expectError(await shop.fixture.call('owner', 'POST', path, body), 409, 'POSTAGE_NOT_RETIRABLE');

    const { order: nativeOrder, fulfillment } = await labelled(shop);
    await expectError(
      await shop.fixture.call(
        'owner',
        'POST',
        `${fulfillmentPath(nativeOrder.id, fulfillment.id)}/retired-postage-acknowledgement`,
        body,
      ),
      409,
      'POSTAGE_NOT_RETIRABLE',
    );
    await expectError(await other.fixture.call('owner', 'POST', path, body), 404, 'RESOURCE_NOT_FOUND');
  });
});
