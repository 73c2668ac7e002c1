import { randomUUID } from 'node:crypto';
import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { TEST_EMAIL_CONFIG } from '@commerce/orders/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allLines, createLabelShop, purchaseBodyFor, type Shop } from '../../test/labels.ts';
import type { CarrierProvider } from '../carrier/carrier-provider.ts';
import { createCarrierProvider } from '../carrier/create-carrier-provider.ts';
import { updateSandboxCarrier } from '../carrier/sandbox-control.ts';
import { acknowledgeRetiredPostage } from '../shipment-cancellations/acknowledge-retired-postage.ts';
import { cancelPreparedShipment } from '../shipment-cancellations/cancel-prepared-shipment.ts';
import { purchaseShippingLabel } from '../shipping-label/purchase-shipping-label.ts';
import { reconcileLabelPurchase } from '../shipping-label/reconcile-label-purchase.ts';
import { attachExternalPostage } from './attach-external-postage.ts';
import { cancelFulfillment } from './cancel-fulfillment.ts';
import { deliverFulfillment } from './deliver-fulfillment.ts';
import { handOffFulfillment } from './hand-off-fulfillment.ts';
import { planFulfillment } from './plan-fulfillment.ts';
import { handOffFulfillmentInputSchema, planFulfillmentInputSchema } from './schemas.ts';

/**
 * The fulfillment and label audit events that no other test pins with their metadata:
 * `fulfillment.planned`, `.external_postage_attached`, `.handed_off`,
 * `.delivered`, `.cancelled`; `shipping_label.purchase_failed`,
 * `.purchase_uncertain`, `.void_requested`, `.void_rejected`,
 * `.retirement_acknowledged`, `.reconciled` (both outcomes), the claim's
 * full metadata; `sandbox_carrier.updated`. (`.carrier_checked`
 * is pinned in invariants.concurrency.test.ts; the rest where they are written.)
 */
let handle: DatabaseHandle;
let carrier: CarrierProvider;
const clock = new ManualClock('2026-11-26T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
  carrier = createCarrierProvider(
    { carrier: { provider: 'sandbox', timeoutMs: 5000, sandboxStartingBalanceInCents: 10_000 } },
    { db: handle.db, clock },
  );
});
afterAll(async () => {
  await handle.close();
});

const actor = { userId: 'usr_audit_test', email: 'owner@audit.test' };
const fulfillmentCtx = (s: Shop) => ({ ...s.shop.ctx(), email: TEST_EMAIL_CONFIG });
const labelCtx = (s: Shop) => ({
  organizationId: s.shop.organizationId,
  actor,
  clock,
  carrier,
  carrierTimeoutMs: 5000,
});
const control = (s: Shop) => ({
  organizationId: s.shop.organizationId,
  actor,
  at: clock.now(),
  currency: 'USD',
  startingBalanceInCents: 10_000,
});

/** Buys the whole order's label with this file's carrier and a fresh key. */
async function buy(s: Shop) {
  return purchaseShippingLabel(
    handle.db,
    labelCtx(s),
    await purchaseBodyFor(handle.db, s, carrier),
    randomUUID(),
  );
}

/** The purchase a refused call names (`details.purchaseId`); fails the test when the call succeeded. */
async function refusedPurchase(call: Promise<unknown>): Promise<{ purchaseId: string }> {
  const error = await call.then(
    () => {
      throw new Error('expected a refusal');
    },
    (failure: { details: { purchaseId: string } }) => failure,
  );
  expect(error.details.purchaseId).toMatch(/^lbp_/);
  return error.details;
}

const auditsOf = (s: Shop, prefix: string) =>
  handle.db
    .selectFrom('audit_logs')
    .select(['action', 'actor_user_id', 'target_id', 'metadata'])
    .where('organization_id', '=', s.shop.organizationId)
    .where('action', 'like', `${prefix}%`)
    .orderBy('id')
    .execute();

describe('fulfillment and label audit events', () => {
  it('a plan through external postage, handoff and delivery, and a cancelled plan, each write their event', async () => {
    const s = await createLabelShop(handle.db, clock);
    const plan = async (lines: { lineId: string; quantity: number }[]) =>
      (
        await planFulfillment(
          handle.db,
          fulfillmentCtx(s),
          planFulfillmentInputSchema.parse({ recordId: s.orderId, lines }),
          randomUUID(),
        )
      ).body;
    const shipped = await plan([{ lineId: s.variantLineId, quantity: 2 }]);
    const dropped = await plan([{ lineId: s.itemLineId, quantity: 1 }]);
    const path = { recordId: s.recordId, fulfillmentId: shipped.id };
    const ready = await attachExternalPostage(handle.db, fulfillmentCtx(s), {
      ...path,
      carrier: 'DHL',
      trackingNumber: 'JD0001',
    });
    await handOffFulfillment(
      handle.db,
      fulfillmentCtx(s),
      handOffFulfillmentInputSchema.parse({ ...path, notifyCustomer: false }),
    );
    clock.advance(60_000);
    await deliverFulfillment(handle.db, fulfillmentCtx(s), path);
    await cancelFulfillment(handle.db, fulfillmentCtx(s), {
      recordId: s.orderId,
      fulfillmentId: dropped.id,
      reason: 'Out of stock',
    });

    const ids = { recordId: s.recordId };
    expect(await auditsOf(s, 'fulfillment.')).toEqual([
      {
        action: 'fulfillment.planned',
        actor_user_id: s.shop.ctx().actor.userId,
        target_id: shipped.id,
        metadata: { ...ids, fulfillmentId: shipped.id, lines: [{ lineId: s.variantLineId, quantity: 2 }] },
      },
      {
        action: 'fulfillment.planned',
        actor_user_id: s.shop.ctx().actor.userId,
        target_id: dropped.id,
        metadata: { ...ids, fulfillmentId: dropped.id, lines: [{ lineId: s.itemLineId, quantity: 1 }] },
      },
      {
        action: 'fulfillment.external_postage_attached',
        actor_user_id: s.shop.ctx().actor.userId,
        target_id: shipped.id,
        metadata: { ...ids, fulfillmentId: shipped.id, carrier: 'DHL', trackingNumber: 'JD0001' },
      },
      {
        action: 'fulfillment.handed_off',
        actor_user_id: s.shop.ctx().actor.userId,
        target_id: shipped.id,
        metadata: { ...ids, fulfillmentId: shipped.id, postageId: ready.postage!.id, notifyCustomer: false },
      },
      {
        action: 'fulfillment.delivered',
        actor_user_id: s.shop.ctx().actor.userId,
        target_id: shipped.id,
        metadata: { ...ids, fulfillmentId: shipped.id, deliveredAt: clock.now().toISOString() },
      },
      {
        action: 'fulfillment.cancelled',
        actor_user_id: s.shop.ctx().actor.userId,
        target_id: dropped.id,
        metadata: { ...ids, fulfillmentId: dropped.id, fromStatus: 'PLANNED', reason: 'Out of stock' },
      },
    ]);
  });

  it('a declined and an uncertain purchase, a rejected void and the sandbox console each write their event', async () => {
    const s = await createLabelShop(handle.db, clock);
    await updateSandboxCarrier(handle.db, control(s), { behaviours: { purchase: 'DECLINED' } } as never);
    const declined = await refusedPurchase(buy(s));
    await updateSandboxCarrier(handle.db, control(s), {
      behaviours: { purchase: 'TIMEOUT_COMMITTED', rate: 'OK' },
    } as never);
    const uncertain = await refusedPurchase(buy(s));
    expect(await auditsOf(s, 'shipping_label.purchase_')).toMatchObject([
      { action: 'shipping_label.purchase_claimed', metadata: { purchaseId: declined.purchaseId } },
      {
        action: 'shipping_label.purchase_failed',
        actor_user_id: actor.userId,
        target_id: declined.purchaseId,
        metadata: {
          purchaseId: declined.purchaseId,
          recordId: s.recordId,
          chargeInCents: 680,
          providerCode: 'DECLINED',
        },
      },
      { action: 'shipping_label.purchase_claimed', metadata: { purchaseId: uncertain.purchaseId } },
      {
        action: 'shipping_label.purchase_uncertain',
        actor_user_id: actor.userId,
        target_id: uncertain.purchaseId,
        metadata: { purchaseId: uncertain.purchaseId, recordId: s.recordId, chargeInCents: 680 },
      },
    ]);
    // Only the changed behaviour is named: `rate` was OK already.
    expect(await auditsOf(s, 'sandbox_carrier.')).toEqual([
      {
        action: 'sandbox_carrier.updated',
        actor_user_id: actor.userId,
        target_id: null,
        metadata: { fields: ['purchase'] },
      },
      {
        action: 'sandbox_carrier.updated',
        actor_user_id: actor.userId,
        target_id: null,
        metadata: { fields: ['purchase'] },
      },
    ]);

    // The claim names what it spends on; each reconcile names its outcome.
    const [claim] = await auditsOf(s, 'shipping_label.purchase_claimed');
    expect(claim!.metadata).toEqual({
      purchaseId: declined.purchaseId,
      recordId: s.recordId,
      lines: allLines(s),
      carrier: 'sandbox',
      service: 'GROUND',
      chargeInCents: 680,
      classification: 'STANDARD',
      acknowledgements: [],
      overrideReason: null,
      reason: null,
    });
    await reconcileLabelPurchase(handle.db, labelCtx(s), {
      orderId: s.orderId,
      purchaseId: uncertain.purchaseId,
    });
    const third = await s.another();
    await updateSandboxCarrier(handle.db, control(s), {
      behaviours: { purchase: 'TIMEOUT_NOT_COMMITTED' },
    } as never);
    const lost = await refusedPurchase(buy(third));
    await reconcileLabelPurchase(handle.db, labelCtx(s), {
      orderId: third.orderId,
      purchaseId: lost.purchaseId,
    });
    expect(await auditsOf(s, 'shipping_label.reconciled')).toMatchObject([
      {
        target_id: uncertain.purchaseId,
        metadata: {
          purchaseId: uncertain.purchaseId,
          recordId: s.recordId,
          outcome: 'PURCHASED',
          chargeInCents: 680,
        },
      },
      {
        target_id: lost.purchaseId,
        metadata: {
          purchaseId: lost.purchaseId,
          recordId: third.recordId,
          outcome: 'NOT_PURCHASED',
          chargeInCents: 680,
        },
      },
    ]);

    const other = await s.another();
    await updateSandboxCarrier(handle.db, control(s), {
      behaviours: { purchase: 'OK', void: 'REJECTED' },
    } as never);
    const { body } = await buy(other);
    const fulfillmentId = body.fulfillment.id;
    const cancelled = await cancelPreparedShipment(
      handle.db,
      { organizationId: s.shop.organizationId, actor, clock, carrier },
      { orderId: other.orderId, fulfillmentId, reason: 'Wrong box' },
    );
    expect(cancelled.body.cancellation).toMatchObject({ status: 'REJECTED' });
    const voids = await auditsOf(s, 'shipping_label.void');
    expect(voids).toEqual([
      {
        action: 'shipping_label.void_requested',
        actor_user_id: actor.userId,
        target_id: fulfillmentId,
        metadata: {
          fulfillmentId,
          recordId: other.recordId,
          cancellationId: cancelled.body.cancellation!.id,
          postageId: body.fulfillment.postage!.id,
          purchaseId: body.purchase.id,
          reason: 'Wrong box',
        },
      },
      {
        action: 'shipping_label.void_rejected',
        actor_user_id: actor.userId,
        target_id: fulfillmentId,
        metadata: {
          fulfillmentId,
          cancellationId: cancelled.body.cancellation!.id,
          postageId: body.fulfillment.postage!.id,
          result: 'REJECTED',
        },
      },
    ]);
  });

  it('a retired-postage acknowledgement writes its source and reason', async () => {
    const s = await createLabelShop(handle.db, clock);
    const { body: planned } = await planFulfillment(
      handle.db,
      fulfillmentCtx(s),
      planFulfillmentInputSchema.parse({ recordId: s.recordId, lines: allLines(s) }),
      randomUUID(),
    );
    const ready = await attachExternalPostage(handle.db, fulfillmentCtx(s), {
      recordId: s.recordId,
      fulfillmentId: planned.id,
      carrier: 'Other Post',
      trackingNumber: 'OP1',
    });
    await acknowledgeRetiredPostage(
      handle.db,
      { organizationId: s.shop.organizationId, actor, clock, carrier },
      { orderId: s.orderId, fulfillmentId: planned.id, reason: 'Label lost', acknowledge: true },
    );
    expect(await auditsOf(s, 'shipping_label.retirement')).toEqual([
      {
        action: 'shipping_label.retirement_acknowledged',
        actor_user_id: actor.userId,
        target_id: planned.id,
        metadata: {
          fulfillmentId: planned.id,
          recordId: s.recordId,
          postageId: ready.postage!.id,
          source: 'EXTERNAL',
          reason: 'Label lost',
        },
      },
    ]);
  });
});
