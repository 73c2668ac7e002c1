import { randomUUID } from 'node:crypto';
import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { TEST_EMAIL_CONFIG } from '@commerce/orders/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelShop, purchaseBodyFor, rejection, type Shop } from '../../test/labels.ts';
import type { CarrierProvider } from '../carrier/carrier-provider.ts';
import { createCarrierProvider } from '../carrier/create-carrier-provider.ts';
import { settleSandboxVoid, updateSandboxCarrier } from '../carrier/sandbox-control.ts';
import { attachExternalPostage } from '../fulfillments/attach-external-postage.ts';
import { cancelFulfillment } from '../fulfillments/cancel-fulfillment.ts';
import { handOffFulfillment } from '../fulfillments/hand-off-fulfillment.ts';
import { planFulfillment } from '../fulfillments/plan-fulfillment.ts';
import {
  attachExternalPostageInputSchema,
  handOffFulfillmentInputSchema,
  planFulfillmentInputSchema,
} from '../fulfillments/schemas.ts';
import { purchaseShippingLabel } from '../shipping-label/purchase-shipping-label.ts';
import { startLabelSweeps } from '../sweeps/label-sweeps.ts';
import { acknowledgeRetiredPostage } from './acknowledge-retired-postage.ts';
import { cancelPreparedShipment, VOID_POLL_OFFSETS_MS } from './cancel-prepared-shipment.ts';
import { checkCarrierForCancellation } from './carrier-check.ts';
import { pollShipmentCancellations } from './poll-cancellations.ts';
import type { ShipmentCancellationContext } from './schemas.ts';

let handle: DatabaseHandle;
let carrier: CarrierProvider;
const clock = new ManualClock('2026-11-26T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 24 });
  carrier = createCarrierProvider(
    { carrier: { provider: 'sandbox', timeoutMs: 5000, sandboxStartingBalanceInCents: 10_000 } },
    { db: handle.db, clock },
  );
});
afterAll(async () => {
  await handle.close();
});

const actor = { userId: 'usr_voids_test', email: 'owner@voids.test' };
const ctxOf = (s: Shop, provider = carrier): ShipmentCancellationContext => ({
  organizationId: s.shop.organizationId,
  actor,
  clock,
  carrier: provider,
});
const fulfillmentCtx = (s: Shop) => ({ ...s.shop.ctx(), at: clock.now(), email: TEST_EMAIL_CONFIG });
const control = (s: Shop) => ({ ...s.shop.ctx(), currency: 'USD', startingBalanceInCents: 10_000 });
const behave = (s: Shop, behaviours: Record<string, string>) =>
  updateSandboxCarrier(handle.db, control(s), { behaviours } as never);

/** A READY fulfillment with a native label bought through the sandbox. */
async function labelled(): Promise<{ s: Shop; fulfillmentId: string; trackingNumber: string }> {
  const s = await createLabelShop(handle.db, clock);
  const { body } = await purchaseShippingLabel(
    handle.db,
    { ...ctxOf(s), carrierTimeoutMs: 5000 },
    await purchaseBodyFor(handle.db, s, carrier),
    randomUUID(),
  );
  return { s, fulfillmentId: body.fulfillment.id, trackingNumber: body.purchase.trackingNumber! };
}

const cancel = (s: Shop, fulfillmentId: string, key?: string, provider = carrier) =>
  cancelPreparedShipment(
    handle.db,
    ctxOf(s, provider),
    { orderId: s.orderId, fulfillmentId, reason: 'Wrong box' },
    key,
  );
const handOff = (s: Shop, fulfillmentId: string) =>
  handOffFulfillment(
    handle.db,
    fulfillmentCtx(s),
    handOffFulfillmentInputSchema.parse({ recordId: s.recordId, fulfillmentId, notifyCustomer: false }),
  );
const check = (s: Shop, fulfillmentId: string) =>
  checkCarrierForCancellation(handle.db, ctxOf(s), { orderId: s.recordId, fulfillmentId });

async function sandboxLabel(s: Shop, trackingNumber: string) {
  return handle.db
    .selectFrom('sandbox_carrier_labels')
    .select(['status', 'void_request_count'])
    .where('organization_id', '=', s.shop.organizationId)
    .where('tracking_number', '=', trackingNumber)
    .executeTakeFirstOrThrow();
}

/** Moves the clock to `offsetMs` after `from` and runs the worker's polls once. */
async function pollAt(from: Date, offsetMs: number) {
  clock.set(new Date(from.getTime() + offsetMs));
  return pollShipmentCancellations(handle.db, { carrier, clock });
}

describe('cancel-prepared-shipment: the void request and its immediate answer', () => {
  it('VOIDED: evidence from the void response retires the postage; handoff is POSTAGE_RETIRED; the fulfillment can then be cancelled', async () => {
    const { s, fulfillmentId, trackingNumber } = await labelled();
    const { body, replayed } = await cancel(s, fulfillmentId);
    expect(replayed).toBe(false);
    expect(body).toMatchObject({
      status: 'READY',
      postage: null,
      cancellation: {
        status: 'VOIDED',
        reason: 'Wrong box',
        requestedBy: actor.userId,
        voidRequestCount: 1,
        pollAttempts: 0,
        evidence: {
          source: 'VOID_RESPONSE',
          providerStatus: 'sandbox:voided',
          providerReference: trackingNumber,
          refundAmountInCents: 680,
        },
      },
    });
    expect(body.retiredPostage[0]).toMatchObject({
      source: 'NATIVE',
      status: 'VOIDED',
      retirementEvidence: { source: 'VOID_RESPONSE' },
    });
    expect(await sandboxLabel(s, trackingNumber)).toEqual({ status: 'VOIDED', void_request_count: 1 });
    expect(await rejection(handOff(s, fulfillmentId))).toMatchObject({
      code: 'HANDOFF_BLOCKED',
      details: { reason: 'POSTAGE_RETIRED' },
    });
    const cancelled = await cancelFulfillment(handle.db, fulfillmentCtx(s), {
      recordId: s.recordId,
      fulfillmentId,
    });
    expect(cancelled.status).toBe('CANCELLED');
    const audit = await handle.db
      .selectFrom('audit_logs')
      .select(['action', 'metadata'])
      .where('organization_id', '=', s.shop.organizationId)
      .where('action', 'in', ['shipping_label.void_requested', 'shipping_label.voided'])
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual([
      'shipping_label.void_requested',
      'shipping_label.voided',
    ]);
    expect(audit[1]!.metadata).toMatchObject({ evidenceSource: 'VOID_RESPONSE', fulfillmentId });
  });

  it('after void evidence the READY fulfillment can be relabelled: new NATIVE postage, the voided one retired', async () => {
    const { s, fulfillmentId } = await labelled();
    await cancel(s, fulfillmentId);
    const { body } = await purchaseShippingLabel(
      handle.db,
      { ...ctxOf(s), carrierTimeoutMs: 5000 },
      await purchaseBodyFor(handle.db, s, carrier, { fulfillmentId, service: 'EXPRESS' }, (quote) => ({
        // EXPRESS (1650) is more than the 1000 the order collected.
        acknowledgements: quote.decision.acknowledgementsRequired,
      })),
      randomUUID(),
    );
    expect(body.fulfillment).toMatchObject({
      id: fulfillmentId,
      status: 'READY',
      postage: { source: 'NATIVE', status: 'ACTIVE', service: 'EXPRESS' },
      retiredPostage: [{ status: 'VOIDED', service: 'GROUND' }],
      cancellation: { status: 'VOIDED' },
    });
    expect((await handOff(s, fulfillmentId)).body.status).toBe('SHIPPED');
  });

  it('REJECTED: the label stands (ACTIVE) and handoff is allowed; a new request then sends one new void', async () => {
    const { s, fulfillmentId, trackingNumber } = await labelled();
    await behave(s, { void: 'REJECTED' });
    const { body } = await cancel(s, fulfillmentId);
    expect(body).toMatchObject({
      status: 'READY',
      postage: { source: 'NATIVE', status: 'ACTIVE' },
      cancellation: { status: 'REJECTED', evidence: null },
    });
    await behave(s, { void: 'VOIDED' });
    const again = await cancel(s, fulfillmentId);
    expect(again.body.cancellation).toMatchObject({ status: 'VOIDED' });
    expect(await sandboxLabel(s, trackingNumber)).toEqual({ status: 'VOIDED', void_request_count: 2 });
  });

  it('UNAVAILABLE: NOT_SENT, the label stands, 503 PROVIDER_UNAVAILABLE; the same key may then send a void', async () => {
    const { s, fulfillmentId } = await labelled();
    const down: CarrierProvider = {
      ...carrier,
      requestVoid: async () => ({ kind: 'UNAVAILABLE', message: 'down' }),
    };
    const key = randomUUID();
    expect(await rejection(cancel(s, fulfillmentId, key, down))).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
    });
    const fulfillment = await handle.db
      .selectFrom('shipment_cancellations')
      .select('status')
      .where('fulfillment_id', '=', fulfillmentId)
      .execute();
    expect(fulfillment).toEqual([{ status: 'NOT_SENT' }]);
    const retried = await cancel(s, fulfillmentId, key);
    expect(retried).toMatchObject({ replayed: false, body: { cancellation: { status: 'VOIDED' } } });
  });

  it('PENDING: handoff is VOID_PENDING, a repeat sends nothing, and the worker closes it on the status it reads', async () => {
    const { s, fulfillmentId, trackingNumber } = await labelled();
    await behave(s, { void: 'PENDING' });
    const key = randomUUID();
    const requestedAt = clock.now();
    const { body } = await cancel(s, fulfillmentId, key);
    expect(body).toMatchObject({
      postage: { status: 'VOID_PENDING' },
      cancellation: { status: 'PENDING', voidRequestCount: 1, closedAt: null },
    });
    expect(await rejection(handOff(s, fulfillmentId))).toMatchObject({
      code: 'HANDOFF_BLOCKED',
      details: { reason: 'VOID_PENDING' },
    });
    // A repeat without a key, and one with the same key: the open cancellation, nothing sent.
    expect((await cancel(s, fulfillmentId)).body.cancellation?.id).toBe(body.cancellation!.id);
    expect((await cancel(s, fulfillmentId, key)).replayed).toBe(true);
    expect((await sandboxLabel(s, trackingNumber)).void_request_count).toBe(1);

    expect(await pollAt(requestedAt, VOID_POLL_OFFSETS_MS[0] - 1)).toMatchObject({ read: 0 });
    expect(await pollAt(requestedAt, VOID_POLL_OFFSETS_MS[0])).toMatchObject({ read: 1, voided: 0 });
    await settleSandboxVoid(handle.db, control(s), { trackingNumber, outcome: 'VOIDED' });
    expect(await pollAt(requestedAt, VOID_POLL_OFFSETS_MS[1] - 1)).toMatchObject({ read: 0 });
    expect(await pollAt(requestedAt, VOID_POLL_OFFSETS_MS[1])).toMatchObject({ read: 1, voided: 1 });
    const after = await handOff(s, fulfillmentId).catch((error: { details: unknown }) => error.details);
    expect(after).toEqual({ reason: 'POSTAGE_RETIRED' });
    const row = await handle.db
      .selectFrom('shipment_cancellations')
      .select(['status', 'poll_attempts', 'evidence'])
      .where('fulfillment_id', '=', fulfillmentId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'VOIDED', poll_attempts: 1, evidence: { source: 'STATUS_READ' } });
  });

  it('refuses external (NOT_NATIVE) and legacy (NO_PROVIDER_REFERENCE) postage, and a fulfillment without postage', async () => {
    const s = await createLabelShop(handle.db, clock);
    const plan = await planFulfillment(
      handle.db,
      fulfillmentCtx(s),
      planFulfillmentInputSchema.parse({
        recordId: s.recordId,
        lines: [{ lineId: s.itemLineId, quantity: 1 }],
      }),
      randomUUID(),
    );
    expect(await rejection(cancel(s, plan.body.id))).toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
    await attachExternalPostage(
      handle.db,
      fulfillmentCtx(s),
      attachExternalPostageInputSchema.parse({
        recordId: s.recordId,
        fulfillmentId: plan.body.id,
        carrier: 'Other Post',
        trackingNumber: 'OP123',
      }),
    );
    expect(await rejection(cancel(s, plan.body.id))).toMatchObject({
      code: 'POSTAGE_NOT_VOIDABLE',
      details: { reason: 'NOT_NATIVE' },
    });
    await handle.db
      .updateTable('fulfillment_postages')
      .set({ source: 'LEGACY' })
      .where('fulfillment_id', '=', plan.body.id)
      .execute();
    expect(await rejection(cancel(s, plan.body.id))).toMatchObject({
      code: 'POSTAGE_NOT_VOIDABLE',
      details: { reason: 'NO_PROVIDER_REFERENCE' },
    });
    const other = await createLabelShop(handle.db, clock);
    await expect(
      cancelPreparedShipment(handle.db, ctxOf(other), { orderId: s.orderId, fulfillmentId: plan.body.id }),
    ).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });
});

describe('exhausted cancellations and the carrier check', () => {
  it('seven reads without evidence exhaust it (system actor); handoff stays blocked; a carrier check appends, waits a minute, then closes', async () => {
    const { s, fulfillmentId, trackingNumber } = await labelled();
    await behave(s, { void: 'TIMEOUT_PENDING' });
    const requestedAt = clock.now();
    const { body } = await cancel(s, fulfillmentId);
    expect(body.cancellation).toMatchObject({ status: 'PENDING' });
    expect(await rejection(check(s, fulfillmentId))).toMatchObject({
      code: 'CARRIER_CHECK_NOT_ALLOWED',
      details: { status: 'PENDING', allowedAfter: null },
    });
    await behave(s, { read: 'UNAVAILABLE' });
    for (const [index, offset] of VOID_POLL_OFFSETS_MS.entries()) {
      if (index === 3) await behave(s, { read: 'OK' });
      expect(await pollAt(requestedAt, offset)).toMatchObject({
        read: 1,
        exhausted: index === VOID_POLL_OFFSETS_MS.length - 1 ? 1 : 0,
      });
    }
    expect(await pollAt(requestedAt, 100 * 3_600_000)).toMatchObject({ read: 0 });
    const exhausted = await handle.db
      .selectFrom('shipment_cancellations')
      .select(['status', 'poll_attempts', 'next_poll_at'])
      .where('fulfillment_id', '=', fulfillmentId)
      .executeTakeFirstOrThrow();
    expect(exhausted).toEqual({ status: 'EXHAUSTED', poll_attempts: 7, next_poll_at: null });
    const audit = await handle.db
      .selectFrom('audit_logs')
      .select(['actor_user_id', 'metadata'])
      .where('organization_id', '=', s.shop.organizationId)
      .where('action', '=', 'shipping_label.void_exhausted')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_user_id: null, metadata: { actor: 'system', fulfillmentId } });
    expect(await rejection(handOff(s, fulfillmentId))).toMatchObject({
      details: { reason: 'VOID_PENDING' },
    });
    // An exhausted cancellation is open: a new request returns it and sends nothing.
    expect((await cancel(s, fulfillmentId)).body.cancellation).toMatchObject({ status: 'EXHAUSTED' });
    expect((await sandboxLabel(s, trackingNumber)).void_request_count).toBe(1);

    const checked = await check(s, fulfillmentId);
    expect(checked.cancellation).toMatchObject({
      status: 'EXHAUSTED',
      checks: [{ providerStatus: 'sandbox:void_pending', result: 'STILL_PENDING' }],
    });
    expect(await rejection(check(s, fulfillmentId))).toMatchObject({
      code: 'CARRIER_CHECK_NOT_ALLOWED',
      details: { status: 'EXHAUSTED', allowedAfter: new Date(clock.now().getTime() + 60_000).toISOString() },
    });
    clock.advance(60_000);
    await settleSandboxVoid(handle.db, control(s), { trackingNumber, outcome: 'REJECTED' });
    const closed = await check(s, fulfillmentId);
    expect(closed).toMatchObject({
      postage: { status: 'ACTIVE' },
      cancellation: { status: 'REJECTED' },
    });
    expect((await handOff(s, fulfillmentId)).body.status).toBe('SHIPPED');
  });

  it('a carrier check that reads VOIDED is evidence (CARRIER_CHECK); a failed read is 503', async () => {
    const { s, fulfillmentId, trackingNumber } = await labelled();
    await behave(s, { void: 'PENDING' });
    const requestedAt = clock.now();
    await cancel(s, fulfillmentId);
    for (const offset of VOID_POLL_OFFSETS_MS) await pollAt(requestedAt, offset);
    await behave(s, { read: 'UNAVAILABLE' });
    expect(await rejection(check(s, fulfillmentId))).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await behave(s, { read: 'OK' });
    await settleSandboxVoid(handle.db, control(s), { trackingNumber, outcome: 'VOIDED' });
    clock.advance(60_000);
    const closed = await check(s, fulfillmentId);
    expect(closed).toMatchObject({
      postage: null,
      cancellation: { status: 'VOIDED', evidence: { source: 'CARRIER_CHECK', refundAmountInCents: 680 } },
    });
  });
});

describe('the label sweep', () => {
  it('runOnce polls due voids and retries due label documents in one pass', async () => {
    const { s, fulfillmentId, trackingNumber } = await labelled();
    await behave(s, { void: 'PENDING' });
    const requestedAt = clock.now();
    await cancel(s, fulfillmentId);
    await settleSandboxVoid(handle.db, control(s), { trackingNumber, outcome: 'VOIDED' });
    const logged: string[] = [];
    const sweeps = startLabelSweeps({
      db: handle.db,
      clock,
      carrier,
      intervalMs: 3_600_000,
      logger: {
        info: (_fields, message) => logged.push(message),
        error: (_fields, message) => logged.push(message),
      },
    });
    try {
      clock.set(new Date(requestedAt.getTime() + VOID_POLL_OFFSETS_MS[0]));
      expect(await sweeps.runOnce()).toEqual({
        labelsStored: 0,
        voids: { read: 1, voided: 1, rejected: 0, exhausted: 0 },
      });
      expect(logged).toEqual(['label sweep']);
    } finally {
      await sweeps.stop();
    }
  });
});

describe('retired-postage acknowledgement', () => {
  it('retires current external postage (no provider call); native or none is POSTAGE_NOT_RETIRABLE', async () => {
    const s = await createLabelShop(handle.db, clock);
    const plan = await planFulfillment(
      handle.db,
      fulfillmentCtx(s),
      planFulfillmentInputSchema.parse({
        recordId: s.recordId,
        lines: [{ lineId: s.itemLineId, quantity: 1 }],
      }),
      randomUUID(),
    );
    const input = {
      orderId: s.orderId,
      fulfillmentId: plan.body.id,
      reason: 'Label lost',
      acknowledge: true as const,
    };
    expect(await rejection(acknowledgeRetiredPostage(handle.db, ctxOf(s), input))).toMatchObject({
      code: 'POSTAGE_NOT_RETIRABLE',
    });
    await attachExternalPostage(
      handle.db,
      fulfillmentCtx(s),
      attachExternalPostageInputSchema.parse({
        recordId: s.recordId,
        fulfillmentId: plan.body.id,
        carrier: 'Other Post',
        trackingNumber: 'OP123',
      }),
    );
    const retired = await acknowledgeRetiredPostage(handle.db, ctxOf(s), input);
    expect(retired).toMatchObject({ status: 'READY', postage: null });
    expect(retired.retiredPostage[0]).toMatchObject({
      source: 'EXTERNAL',
      status: 'RETIRED',
      retirementEvidence: {
        source: 'MERCHANT_ACKNOWLEDGEMENT',
        actorUserId: actor.userId,
        reason: 'Label lost',
      },
    });
    expect(await rejection(handOff(s, plan.body.id))).toMatchObject({
      code: 'HANDOFF_BLOCKED',
      details: { reason: 'POSTAGE_RETIRED' },
    });

    const { s: native, fulfillmentId } = await labelled();
    expect(
      await rejection(
        acknowledgeRetiredPostage(handle.db, ctxOf(native), {
          ...input,
          orderId: native.orderId,
          fulfillmentId,
        }),
      ),
    ).toMatchObject({ code: 'POSTAGE_NOT_RETIRABLE', details: { source: 'NATIVE' } });
  });
});

describe('concurrent cancel-prepared-shipment', () => {
  it('8 concurrent requests (with and without keys) make one cancellation and one void request', async () => {
    const { s, fulfillmentId, trackingNumber } = await labelled();
    await behave(s, { void: 'PENDING' });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, index) => cancel(s, fulfillmentId, index % 2 ? randomUUID() : undefined)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(8);
    expect((await sandboxLabel(s, trackingNumber)).void_request_count).toBe(1);
    const rows = await handle.db
      .selectFrom('shipment_cancellations')
      .select('status')
      .where('fulfillment_id', '=', fulfillmentId)
      .execute();
    expect(rows).toEqual([{ status: 'PENDING' }]);
  });
});
