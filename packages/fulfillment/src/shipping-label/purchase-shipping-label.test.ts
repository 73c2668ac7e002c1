import { randomUUID } from 'node:crypto';
import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { updateOrderStatus } from '@commerce/orders';
import { ORDER_STATUS_EFFECTS, TEST_EMAIL_CONFIG } from '@commerce/orders/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allLines,
  createLabelShop,
  purchaseBodyFor,
  rejection,
  type Shop,
  sandboxAccount,
} from '../../test/labels.ts';
import type { CarrierLabel, CarrierProvider, CarrierResult } from '../carrier/carrier-provider.ts';
import { createCarrierProvider } from '../carrier/create-carrier-provider.ts';
import { updateSandboxCarrier } from '../carrier/sandbox-control.ts';
import { attachExternalPostage } from '../fulfillments/attach-external-postage.ts';
import { cancelFulfillment } from '../fulfillments/cancel-fulfillment.ts';
import { planFulfillment } from '../fulfillments/plan-fulfillment.ts';
import { planFulfillmentInputSchema } from '../fulfillments/schemas.ts';
import { retryLabelDocuments } from './label-documents.ts';
import { getLabelPurchase, listLabelPurchases } from './label-purchase-read.ts';
import { purchaseShippingLabel } from './purchase-shipping-label.ts';
import { reconcileLabelPurchase } from './reconcile-label-purchase.ts';
import { labelPurchaseListQuerySchema } from './schemas.ts';
import type { LabelPurchaseContext } from './settle-label-purchase.ts';

let handle: DatabaseHandle;
let carrier: CarrierProvider;
const clock = new ManualClock('2026-11-26T09:00:00.000Z');
const TIMEOUT_MS = 5000;

beforeAll(async () => {
  handle = await createTestDatabase();
  carrier = sandboxCarrier(10_000);
});
afterAll(async () => {
  await handle.close();
});

function sandboxCarrier(startingBalanceInCents: number): CarrierProvider {
  return createCarrierProvider(
    {
      carrier: {
        provider: 'sandbox',
        timeoutMs: TIMEOUT_MS,
        sandboxStartingBalanceInCents: startingBalanceInCents,
      },
    },
    { db: handle.db, clock },
  );
}

const shopWithOrder = (options: Parameters<typeof createLabelShop>[2] = {}) =>
  createLabelShop(handle.db, clock, options);

const ctxOf = (s: Shop, provider = carrier): LabelPurchaseContext => ({
  organizationId: s.shop.organizationId,
  actor: { userId: 'usr_labels_test', email: 'merchant@labels.test' },
  clock,
  carrier: provider,
  carrierTimeoutMs: TIMEOUT_MS,
});
const newKey = () => `label-${randomUUID()}`;

/** The purchase body as a client sends it, quoted with this file's carrier. */
const bodyFor = (s: Shop, changes: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  purchaseBodyFor(handle.db, s, carrier, changes, extra);

const buy = async (s: Shop, key = newKey(), provider = carrier) =>
  purchaseShippingLabel(handle.db, ctxOf(s, provider), await bodyFor(s), key);

const control = (s: Shop) => ({ ...s.shop.ctx(), currency: 'USD', startingBalanceInCents: 10_000 });
const behave = (s: Shop, behaviours: Record<string, string>) =>
  updateSandboxCarrier(handle.db, control(s), { behaviours } as never);

async function counters(s: Shop) {
  const rows = await handle.db
    .selectFrom('sales_record_lines')
    .select(['id', 'allocated_quantity', 'shipped_quantity'])
    .where('sales_record_id', '=', s.recordId)
    .orderBy('id')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.id, row.allocated_quantity]));
}

async function auditActions(s: Shop) {
  const rows = await handle.db
    .selectFrom('audit_logs')
    .select(['action', 'metadata'])
    .where('organization_id', '=', s.shop.organizationId)
    .where('action', 'like', 'shipping_label.%')
    .orderBy('id')
    .execute();
  return rows;
}

const purchaseRow = (id: string) =>
  handle.db.selectFrom('label_purchases').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('purchaseShippingLabel: outcomes of the settle', () => {
  it('OK: PURCHASED, a READY NATIVE_LABEL fulfillment with NATIVE ACTIVE postage and its label stored', async () => {
    const s = await shopWithOrder();
    const { body, replayed } = await buy(s);
    expect(replayed).toBe(false);
    expect(body.purchase).toMatchObject({
      status: 'PURCHASED',
      failure: null,
      chargeInCents: 680,
      classification: 'STANDARD',
      recordId: s.recordId,
      orderId: s.orderId,
      fulfillmentId: body.fulfillment.id,
      reconciliation: { status: 'NOT_REQUIRED', allowed: false, attempts: 0, outcome: null },
    });
    expect(body.purchase.trackingNumber).toMatch(/^SBX[0-9A-F]{16}$/);
    expect(body.fulfillment).toMatchObject({
      status: 'READY',
      origin: 'NATIVE_LABEL',
      package: { boxPresetId: s.towerId, loadedWeightGrams: 1400 },
      postage: {
        source: 'NATIVE',
        status: 'ACTIVE',
        carrier: 'sandbox',
        service: 'GROUND',
        chargeInCents: 680,
        purchaseId: body.purchase.id,
        trackingNumber: body.purchase.trackingNumber,
        labelAvailable: true,
      },
      tracking: { carrier: 'sandbox', trackingNumber: body.purchase.trackingNumber },
    });
    expect(body.fulfillment.lines.map((line) => line.quantity)).toEqual([3, 2]);
    // The fulfillment took over the claim's allocation; nothing shipped or consumed.
    expect(await counters(s)).toEqual({ [s.variantLineId]: 3, [s.itemLineId]: 2 });
    expect(await sandboxAccount(handle.db, s.shop.organizationId)).toEqual({
      balance_in_cents: 10_000 - 680,
      purchase_count: 1,
    });
    const artifact = await handle.db
      .selectFrom('label_artifacts')
      .select(['content_type', 'byte_size'])
      .where('purchase_id', '=', body.purchase.id)
      .executeTakeFirstOrThrow();
    expect(artifact.content_type).toBe('application/pdf');
    const audit = await auditActions(s);
    expect(audit.map((row) => row.action)).toEqual([
      'shipping_label.purchase_claimed',
      'shipping_label.purchased',
    ]);
    expect(audit[0]!.metadata).toMatchObject({
      purchaseId: body.purchase.id,
      carrier: 'sandbox',
      service: 'GROUND',
      chargeInCents: 680,
      classification: 'STANDARD',
      acknowledgements: [],
    });
    expect(audit[1]!.metadata).toMatchObject({
      fulfillmentId: body.fulfillment.id,
      chargeInCents: 680,
      trackingNumber: body.purchase.trackingNumber,
    });
  });

  it('replays a settled key (either id, read now) without a second carrier purchase; another body is IDEMPOTENCY_KEY_REUSED', async () => {
    const s = await shopWithOrder();
    const key = newKey();
    const first = await buy(s, key);
    const again = await purchaseShippingLabel(
      handle.db,
      ctxOf(s),
      { ...(await bodyFor(s)), orderId: s.recordId },
      key,
    );
    expect(again.replayed).toBe(true);
    expect(again.body.purchase.id).toBe(first.body.purchase.id);
    expect(again.body.fulfillment.id).toBe(first.body.fulfillment.id);
    expect((await sandboxAccount(handle.db, s.shop.organizationId)).purchase_count).toBe(1);
    const reused = await rejection(
      purchaseShippingLabel(handle.db, ctxOf(s), await bodyFor(s, {}, { reason: 'other' }), key),
    );
    expect(reused).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', details: { fields: ['reason'] } });
  });

  it('REJECTED: FAILED DECLINED, 502 with the purchase and provider code; lines, claim and key released', async () => {
    const s = await shopWithOrder();
    await behave(s, { purchase: 'DECLINED' });
    const key = newKey();
    const error = await rejection(buy(s, key));
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', details: { providerCode: 'DECLINED' } });
    const row = await purchaseRow(error.details.purchaseId as string);
    expect(row).toMatchObject({ status: 'FAILED', failure: 'DECLINED', fulfillment_id: null });
    expect(Object.values(await counters(s))).toEqual([0, 0]);
    expect((await auditActions(s)).map((a) => a.action)).toEqual([
      'shipping_label.purchase_claimed',
      'shipping_label.purchase_failed',
    ]);
    // The key was released: the same key runs again as a new purchase.
    await behave(s, { purchase: 'OK' });
    const retried = await buy(s, key);
    expect(retried.replayed).toBe(false);
    expect(retried.body.purchase.id).not.toBe(row.id);
    expect(retried.body.purchase.status).toBe('PURCHASED');
  });

  it('UNAVAILABLE: FAILED NOT_SENT, 503 PROVIDER_UNAVAILABLE with the purchase; nothing spent or held', async () => {
    const s = await shopWithOrder();
    await behave(s, { purchase: 'UNAVAILABLE' });
    const error = await rejection(buy(s));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(await purchaseRow(error.details.purchaseId as string)).toMatchObject({
      status: 'FAILED',
      failure: 'NOT_SENT',
    });
    expect(Object.values(await counters(s))).toEqual([0, 0]);
    expect(await sandboxAccount(handle.db, s.shop.organizationId)).toMatchObject({
      balance_in_cents: 10_000,
      purchase_count: 0,
    });
  });

  it('UNCERTAIN (committed): 503 with the reconciliation; key, lines and claim kept; a reconcile settles it PURCHASED and the key replays', async () => {
    const s = await shopWithOrder();
    await behave(s, { purchase: 'TIMEOUT_COMMITTED' });
    const key = newKey();
    const error = await rejection(buy(s, key));
    expect(error).toMatchObject({
      code: 'LABEL_PURCHASE_UNCERTAIN',
      details: { reconciliation: { status: 'ALLOWED', allowed: true, attempts: 0 } },
    });
    const purchaseId = error.details.purchaseId as string;
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'UNCERTAIN' });
    expect(Object.values(await counters(s)).sort()).toEqual([2, 3]);
    // The same key answers from the purchase's state: no second carrier call.
    const same = await rejection(buy(s, key));
    expect(same).toMatchObject({ code: 'LABEL_PURCHASE_UNCERTAIN', details: { purchaseId } });
    expect((await sandboxAccount(handle.db, s.shop.organizationId)).purchase_count).toBe(1);
    // Another key for the held lines.
    expect(await rejection(buy(s))).toMatchObject({
      code: 'LABEL_PURCHASE_UNSETTLED',
      details: { purchaseId },
    });

    const reconciled = await reconcileLabelPurchase(handle.db, ctxOf(s), { orderId: s.orderId, purchaseId });
    expect(reconciled.purchase).toMatchObject({
      status: 'PURCHASED',
      reconciliation: { status: 'RESOLVED', outcome: 'PURCHASED', attempts: 1, allowed: false },
    });
    expect(reconciled.fulfillment).toMatchObject({
      status: 'READY',
      postage: { source: 'NATIVE', status: 'ACTIVE', labelAvailable: true },
    });
    const replay = await buy(s, key);
    expect(replay).toMatchObject({ replayed: true, body: { purchase: { id: purchaseId } } });
    expect((await sandboxAccount(handle.db, s.shop.organizationId)).purchase_count).toBe(1);
    expect(
      await rejection(reconcileLabelPurchase(handle.db, ctxOf(s), { orderId: s.orderId, purchaseId })),
    ).toMatchObject({ code: 'RECONCILE_NOT_ALLOWED', details: { reconciliation: { status: 'RESOLVED' } } });
    expect((await auditActions(s)).map((a) => a.action)).toEqual([
      'shipping_label.purchase_claimed',
      'shipping_label.purchase_uncertain',
      'shipping_label.purchased',
      'shipping_label.reconciled',
    ]);
  });

  it('UNCERTAIN (not committed): a failed read cools down 30 s; NOT_FOUND then settles it FAILED NOT_PURCHASED and frees lines and key', async () => {
    const s = await shopWithOrder();
    await behave(s, { purchase: 'TIMEOUT_NOT_COMMITTED' });
    const key = newKey();
    const purchaseId = (await rejection(buy(s, key))).details.purchaseId as string;
    const path = { orderId: s.recordId, purchaseId };
    await behave(s, { read: 'UNAVAILABLE' });
    expect(await rejection(reconcileLabelPurchase(handle.db, ctxOf(s), path))).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
    });
    const cooling = await rejection(reconcileLabelPurchase(handle.db, ctxOf(s), path));
    expect(cooling).toMatchObject({
      code: 'RECONCILE_NOT_ALLOWED',
      details: {
        reconciliation: {
          status: 'COOLING_DOWN',
          attempts: 1,
          allowedAfter: new Date(clock.now().getTime() + 30_000).toISOString(),
        },
      },
    });
    await behave(s, { read: 'OK' });
    clock.advance(30_000);
    const reconciled = await reconcileLabelPurchase(handle.db, ctxOf(s), path);
    expect(reconciled.fulfillment).toBeUndefined();
    expect(reconciled.purchase).toMatchObject({
      status: 'FAILED',
      failure: 'NOT_PURCHASED',
      reconciliation: { status: 'RESOLVED', outcome: 'NOT_PURCHASED', attempts: 2 },
    });
    expect(Object.values(await counters(s))).toEqual([0, 0]);
    // The key was released with the failure: the same key buys anew.
    await behave(s, { purchase: 'OK' });
    const retried = await buy(s, key);
    expect(retried.body.purchase.status).toBe('PURCHASED');
    expect(retried.body.purchase.id).not.toBe(purchaseId);
  });

  it('PENDING: in flight a same key is IN_PROGRESS and reconcile refused; past the window both treat it as uncertain, and a late answer loses the compare-and-set', async () => {
    const s = await shopWithOrder();
    // A carrier whose purchase answers only when told: the request stays between claim and settle.
    let answer!: (result: CarrierResult<CarrierLabel>) => void;
    let calls = 0;
    const held: CarrierProvider = {
      ...carrier,
      purchase: () => {
        calls += 1;
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
    };
    const key = newKey();
    const body = await bodyFor(s);
    const first = purchaseShippingLabel(handle.db, ctxOf(s, held), body, key);
    while (calls === 0) await new Promise((resolve) => setImmediate(resolve));
    const { id: purchaseId } = await handle.db
      .selectFrom('label_purchases')
      .select('id')
      .where('organization_id', '=', s.shop.organizationId)
      .executeTakeFirstOrThrow();
    expect(await rejection(purchaseShippingLabel(handle.db, ctxOf(s, held), body, key))).toMatchObject({
      code: 'LABEL_PURCHASE_IN_PROGRESS',
      details: { purchaseId },
    });
    const path = { orderId: s.orderId, purchaseId };
    expect(await rejection(reconcileLabelPurchase(handle.db, ctxOf(s), path))).toMatchObject({
      code: 'RECONCILE_NOT_ALLOWED',
      details: {
        reconciliation: {
          status: 'IN_FLIGHT',
          allowedAfter: new Date(clock.now().getTime() + 120_000).toISOString(),
        },
      },
    });
    clock.advance(120_000);
    expect(await rejection(purchaseShippingLabel(handle.db, ctxOf(s, held), body, key))).toMatchObject({
      code: 'LABEL_PURCHASE_UNCERTAIN',
      details: { purchaseId, reconciliation: { status: 'ALLOWED' } },
    });
    expect(calls).toBe(1);
    // The carrier never got it: the reconcile settles it not purchased.
    const reconciled = await reconcileLabelPurchase(handle.db, ctxOf(s), path);
    expect(reconciled.purchase).toMatchObject({ status: 'FAILED', failure: 'NOT_PURCHASED' });
    // The original call's late answer finds it settled: nothing changes twice.
    answer({ kind: 'UNAVAILABLE', message: 'late' });
    expect(await rejection(first)).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', details: { purchaseId } });
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'FAILED', failure: 'NOT_PURCHASED' });
    expect(Object.values(await counters(s))).toEqual([0, 0]);
  });
});

describe('purchaseShippingLabel: refusals before the claim', () => {
  it('QUOTE_FINGERPRINT_MISMATCH with a fresh quote; nothing claimed', async () => {
    const s = await shopWithOrder();
    const body = { ...(await bodyFor(s)), selectionQuoteFingerprint: 'sqf1_stale' };
    const error = await rejection(purchaseShippingLabel(handle.db, ctxOf(s), body, newKey()));
    expect(error).toMatchObject({
      code: 'QUOTE_FINGERPRINT_MISMATCH',
      details: { quote: { chargeInCents: 680, decision: { classification: 'STANDARD' } } },
    });
    expect((error.details.quote as { selectionQuoteFingerprint: string }).selectionQuoteFingerprint).toMatch(
      /^sqf1_/,
    );
    expect(await auditActions(s)).toEqual([]);
  });

  it('LABEL_ACKNOWLEDGEMENT_REQUIRED names what is missing; given, the purchase keeps them', async () => {
    const s = await shopWithOrder();
    const custom = { package: { lengthMm: 100, widthMm: 100, heightMm: 250, loadedWeightGrams: 1400 } };
    const error = await rejection(
      purchaseShippingLabel(handle.db, ctxOf(s), await bodyFor(s, custom), newKey()),
    );
    expect(error).toMatchObject({
      code: 'LABEL_ACKNOWLEDGEMENT_REQUIRED',
      details: { missing: ['PACKAGE_OVERRIDE', 'overrideReason'], classification: 'REVIEW_REQUIRED' },
    });
    const { body } = await purchaseShippingLabel(
      handle.db,
      ctxOf(s),
      await bodyFor(s, custom, { acknowledgements: ['PACKAGE_OVERRIDE'], overrideReason: 'Own box' }),
      newKey(),
    );
    expect(body.purchase).toMatchObject({
      classification: 'REVIEW_REQUIRED',
      acknowledgements: ['PACKAGE_OVERRIDE'],
      overrideReason: 'Own box',
    });
    expect(body.fulfillment.package).toMatchObject({ boxPresetId: null, heightMm: 250 });
  });

  it('INSUFFICIENT_POSTAGE_FUNDS counts open claims; a failed balance read is 503', async () => {
    const s = await shopWithOrder();
    const poor = sandboxCarrier(500);
    const error = await rejection(
      purchaseShippingLabel(handle.db, ctxOf(s, poor), await bodyFor(s), newKey()),
    );
    expect(error).toMatchObject({
      code: 'INSUFFICIENT_POSTAGE_FUNDS',
      details: { requiredInCents: 680, availableInCents: 500, shortfallInCents: 180 },
    });
    await behave(s, { balance: 'UNAVAILABLE' });
    expect(await rejection(buy(s))).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(
      await handle.db
        .selectFrom('label_purchases')
        .select('id')
        .where('organization_id', '=', s.shop.organizationId)
        .execute(),
    ).toEqual([]);
  });

  it('maps blockers: LABEL_NOT_PURCHASABLE, OVER_FULFILLMENT, ORDER_NOT_FULFILLABLE', async () => {
    const noShipTo = await shopWithOrder({ shipTo: false });
    expect(await rejection(buy(noShipTo))).toMatchObject({
      code: 'LABEL_NOT_PURCHASABLE',
      details: { blockers: [{ code: 'SHIP_TO_ADDRESS_MISSING' }] },
    });

    const planned = await shopWithOrder();
    await planFulfillment(
      handle.db,
      { ...planned.shop.ctx(), email: TEST_EMAIL_CONFIG },
      planFulfillmentInputSchema.parse({
        recordId: planned.recordId,
        lines: [{ lineId: planned.itemLineId, quantity: 1 }],
      }),
      newKey(),
    );
    expect(await rejection(buy(planned))).toMatchObject({
      code: 'OVER_FULFILLMENT',
      details: { lines: [{ lineId: planned.itemLineId, requested: 2, available: 1 }] },
    });

    const cancelled = await shopWithOrder();
    await updateOrderStatus(
      handle.db,
      cancelled.shop.ctx(),
      { id: cancelled.orderId, status: 'CANCELLED' },
      ORDER_STATUS_EFFECTS,
    );
    expect(await rejection(buy(cancelled))).toMatchObject({
      code: 'ORDER_NOT_FULFILLABLE',
      details: { reason: 'CANCELLED' },
    });
  });
});

describe('label purchase for a PLANNED fulfillment', () => {
  it('labels it READY without moving counters; a second label is PAID_POSTAGE_ACTIVE', async () => {
    const s = await shopWithOrder();
    const plan = await planFulfillment(
      handle.db,
      { ...s.shop.ctx(), email: TEST_EMAIL_CONFIG },
      planFulfillmentInputSchema.parse({ recordId: s.recordId, lines: allLines(s) }),
      newKey(),
    );
    const before = await counters(s);
    const { body } = await purchaseShippingLabel(
      handle.db,
      ctxOf(s),
      await bodyFor(s, { fulfillmentId: plan.body.id }),
      newKey(),
    );
    expect(body.fulfillment).toMatchObject({
      id: plan.body.id,
      status: 'READY',
      origin: 'PLANNED',
      version: plan.body.version + 1,
      postage: { source: 'NATIVE', status: 'ACTIVE' },
    });
    expect(await counters(s)).toEqual(before);
    expect(
      await rejection(
        purchaseShippingLabel(
          handle.db,
          ctxOf(s),
          await bodyFor(s, { fulfillmentId: plan.body.id }),
          newKey(),
        ),
      ),
    ).toMatchObject({ code: 'PAID_POSTAGE_ACTIVE' });
  });
});

describe('an unsettled purchase for a fulfillment', () => {
  it('blocks its canonical cancel and external postage (LABEL_PURCHASE_UNSETTLED) until it settles', async () => {
    const s = await shopWithOrder();
    const plan = await planFulfillment(
      handle.db,
      { ...s.shop.ctx(), email: TEST_EMAIL_CONFIG },
      planFulfillmentInputSchema.parse({ recordId: s.recordId, lines: allLines(s) }),
      newKey(),
    );
    await behave(s, { purchase: 'TIMEOUT_COMMITTED' });
    const body = await bodyFor(s, { fulfillmentId: plan.body.id });
    const { details } = await rejection(purchaseShippingLabel(handle.db, ctxOf(s), body, newKey()));
    const fulfillmentCtx = { ...s.shop.ctx(), email: TEST_EMAIL_CONFIG };
    const path = { recordId: s.recordId, fulfillmentId: plan.body.id };
    expect(await rejection(cancelFulfillment(handle.db, fulfillmentCtx, path))).toMatchObject({
      code: 'LABEL_PURCHASE_UNSETTLED',
      details: { purchaseId: details.purchaseId },
    });
    expect(
      await rejection(
        attachExternalPostage(handle.db, fulfillmentCtx, { ...path, carrier: 'Other', trackingNumber: 'X1' }),
      ),
    ).toMatchObject({ code: 'LABEL_PURCHASE_UNSETTLED' });
    const reconciled = await reconcileLabelPurchase(handle.db, ctxOf(s), {
      orderId: s.orderId,
      purchaseId: details.purchaseId as string,
    });
    expect(reconciled.fulfillment).toMatchObject({ id: plan.body.id, status: 'READY' });
  });
});

describe('label documents', () => {
  it('a failed fetch leaves labelAvailable false; the worker retries when due and stores it once', async () => {
    const s = await shopWithOrder();
    await behave(s, { read: 'UNAVAILABLE' });
    const { body } = await buy(s);
    expect(body.fulfillment.postage).toMatchObject({ labelAvailable: false });
    const postage = await handle.db
      .selectFrom('fulfillment_postages')
      .select(['label_fetch_attempts', 'label_next_fetch_at'])
      .where('id', '=', body.fulfillment.postage!.id)
      .executeTakeFirstOrThrow();
    expect(postage.label_fetch_attempts).toBe(1);
    expect(new Date(postage.label_next_fetch_at!).getTime()).toBe(clock.now().getTime() + 60_000);
    await behave(s, { read: 'OK' });
    const sweepCarrier = carrier;
    expect(await retryLabelDocuments(handle.db, { carrier: sweepCarrier, clock })).toBe(0);
    clock.advance(60_000);
    expect(await retryLabelDocuments(handle.db, { carrier: sweepCarrier, clock })).toBeGreaterThanOrEqual(1);
    const read = await getLabelPurchase(
      handle.db,
      { organizationId: s.shop.organizationId, now: clock.now(), carrierTimeoutMs: TIMEOUT_MS },
      { orderId: s.orderId, purchaseId: body.purchase.id },
    );
    expect(read.status).toBe('PURCHASED');
    const stored = await handle.db
      .selectFrom('fulfillment_postages')
      .select(['label_available', 'label_next_fetch_at'])
      .where('id', '=', body.fulfillment.postage!.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ label_available: true, label_next_fetch_at: null });
    expect(await retryLabelDocuments(handle.db, { carrier: sweepCarrier, clock })).toBe(0);
  });
});

describe('purchase reads', () => {
  it('lists a record’s purchases oldest first by keyset, and hides other records’ and tenants’', async () => {
    const s = await shopWithOrder();
    await behave(s, { purchase: 'DECLINED' });
    const failedId = (await rejection(buy(s))).details.purchaseId as string;
    await behave(s, { purchase: 'OK' });
    const { body } = await buy(s);
    const readCtx = { organizationId: s.shop.organizationId, now: clock.now(), carrierTimeoutMs: TIMEOUT_MS };
    const page1 = await listLabelPurchases(
      handle.db,
      readCtx,
      labelPurchaseListQuerySchema.parse({ orderId: s.recordId, limit: 1 }),
    );
    expect(page1.data.map((p) => p.id)).toEqual([failedId]);
    const page2 = await listLabelPurchases(
      handle.db,
      readCtx,
      labelPurchaseListQuerySchema.parse({ orderId: s.orderId, limit: 1, cursor: page1.nextCursor }),
    );
    expect(page2).toMatchObject({ data: [{ id: body.purchase.id }], nextCursor: null });

    const other = await shopWithOrder();
    const otherCtx = { ...readCtx, organizationId: other.shop.organizationId };
    await expect(
      getLabelPurchase(handle.db, otherCtx, { orderId: other.orderId, purchaseId: body.purchase.id }),
    ).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    await expect(
      getLabelPurchase(handle.db, otherCtx, { orderId: s.orderId, purchaseId: body.purchase.id }),
    ).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });
});
