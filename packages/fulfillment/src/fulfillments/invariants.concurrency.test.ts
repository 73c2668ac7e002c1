import { randomUUID } from 'node:crypto';
import { type AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { TEST_EMAIL_CONFIG } from '@commerce/orders/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allLines,
  codesOf,
  createLabelShop,
  labelSelection,
  purchaseBodyFor,
  rejection,
  type Shop,
  sandboxAccount,
  winsOf,
} from '../../test/labels.ts';
import type { CarrierProvider } from '../carrier/carrier-provider.ts';
import { createCarrierProvider } from '../carrier/create-carrier-provider.ts';
import { settleSandboxVoid, updateSandboxCarrier } from '../carrier/sandbox-control.ts';
import {
  cancelPreparedShipment,
  VOID_POLL_OFFSETS_MS,
} from '../shipment-cancellations/cancel-prepared-shipment.ts';
import { checkCarrierForCancellation } from '../shipment-cancellations/carrier-check.ts';
import { pollShipmentCancellations } from '../shipment-cancellations/poll-cancellations.ts';
import { readPostageBalance } from '../shipping-label/funding.ts';
import { purchaseShippingLabel } from '../shipping-label/purchase-shipping-label.ts';
import { quoteShippingLabel } from '../shipping-label/quote-shipping-label.ts';
import { reconcileLabelPurchase } from '../shipping-label/reconcile-label-purchase.ts';
import {
  purchaseShippingLabelInputSchema,
  shippingLabelQuoteInputSchema,
} from '../shipping-label/schemas.ts';
import type { LabelPurchaseContext } from '../shipping-label/settle-label-purchase.ts';
import { attachExternalPostage } from './attach-external-postage.ts';
import { cancelFulfillment } from './cancel-fulfillment.ts';
import { createDirectFulfillment } from './create-direct-fulfillment.ts';
import { handOffFulfillment } from './hand-off-fulfillment.ts';
import { planFulfillment } from './plan-fulfillment.ts';
import {
  createDirectFulfillmentInputSchema,
  type FulfillmentContext,
  handOffFulfillmentInputSchema,
  planFulfillmentInputSchema,
} from './schemas.ts';

/**
 * Issue 15's invariants that cross services (locks, stock, funds, label purchases, voids):
 * direct fulfillments, plans and label purchases racing on one record; funds
 * under concurrent purchases; a crash between the carrier call and the
 * settlement; the exhausted-cancellation carrier check; cancel racing handoff.
 * Races are real on PostgreSQL (TEST_DATABASE_URL, a pool of 24); PGlite runs
 * the same calls one at a time, so every assertion holds for any interleaving.
 */
let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-26T09:00:00.000Z');
const TIMEOUT_MS = 5000;

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 24 });
});
afterAll(async () => {
  await handle.close();
});

const sandbox = (startingBalanceInCents = 10_000): CarrierProvider =>
  createCarrierProvider(
    {
      carrier: {
        provider: 'sandbox',
        timeoutMs: TIMEOUT_MS,
        sandboxStartingBalanceInCents: startingBalanceInCents,
      },
    },
    { db: handle.db, clock },
  );

/** The sandbox with each call counted: what reaches the carrier. */
function counted(inner: CarrierProvider) {
  const calls = { purchase: 0, findPurchase: 0, requestVoid: 0, readLabel: 0 };
  const provider: CarrierProvider = {
    ...inner,
    purchase: (account, request) => {
      calls.purchase += 1;
      return inner.purchase(account, request);
    },
    findPurchase: (account, reference) => {
      calls.findPurchase += 1;
      return inner.findPurchase(account, reference);
    },
    requestVoid: (account, label) => {
      calls.requestVoid += 1;
      return inner.requestVoid(account, label);
    },
    readLabel: (account, label) => {
      calls.readLabel += 1;
      return inner.readLabel(account, label);
    },
  };
  return { provider, calls };
}

const labelCtx = (s: Shop, carrier: CarrierProvider): LabelPurchaseContext => ({
  organizationId: s.shop.organizationId,
  actor: { userId: 'usr_invariants_test', email: 'merchant@invariants.test' },
  clock,
  carrier,
  carrierTimeoutMs: TIMEOUT_MS,
});
const fulfillmentCtx = (s: Shop): FulfillmentContext => ({ ...s.shop.ctx(), email: TEST_EMAIL_CONFIG });
const control = (s: Shop) => ({ ...s.shop.ctx(), currency: 'USD', startingBalanceInCents: 10_000 });
const behave = (s: Shop, behaviours: Record<string, string>) =>
  updateSandboxCarrier(handle.db, control(s), { behaviours } as never);

/** Each line's counters and quantity, and what the live fulfillments and open purchases hold of it. */
async function ledger(s: Shop) {
  const lines = await handle.db
    .selectFrom('sales_record_lines')
    .select(['id', 'quantity', 'shipped_quantity', 'allocated_quantity'])
    .where('organization_id', '=', s.shop.organizationId)
    .where('sales_record_id', '=', s.recordId)
    .execute();
  const held = await handle.db
    .selectFrom('fulfillment_lines as fl')
    .innerJoin('fulfillments as f', (join) =>
      join.onRef('f.organization_id', '=', 'fl.organization_id').onRef('f.id', '=', 'fl.fulfillment_id'),
    )
    .select(['fl.line_id', 'f.status', 'fl.quantity'])
    .where('fl.organization_id', '=', s.shop.organizationId)
    .where('f.sales_record_id', '=', s.recordId)
    .execute();
  const open = await handle.db
    .selectFrom('label_purchases')
    .select(['lines', 'fulfillment_id'])
    .where('organization_id', '=', s.shop.organizationId)
    .where('sales_record_id', '=', s.recordId)
    .where('status', 'in', ['PENDING', 'UNCERTAIN'])
    .execute();
  return lines.map((line) => {
    const of = (statuses: string[]) =>
      held
        .filter((row) => row.line_id === line.id && statuses.includes(row.status))
        .reduce((sum, row) => sum + row.quantity, 0);
    const claimed = open
      .filter((purchase) => purchase.fulfillment_id === null)
      .flatMap((purchase) => purchase.lines)
      .filter((entry) => entry.lineId === line.id)
      .reduce((sum, entry) => sum + entry.quantity, 0);
    return {
      id: line.id,
      quantity: line.quantity,
      shipped: line.shipped_quantity,
      allocated: line.allocated_quantity,
      liveShipped: of(['SHIPPED', 'DELIVERED']),
      liveAllocated: of(['PLANNED', 'READY']) + claimed,
    };
  });
}

const stockOf = async (s: Shop) =>
  (
    await handle.db
      .selectFrom('variants')
      .select('inventory_quantity')
      .where('organization_id', '=', s.shop.organizationId)
      .where('id', '=', s.shop.variantId)
      .executeTakeFirstOrThrow()
  ).inventory_quantity;

const movementsOf = (s: Shop) =>
  handle.db
    .selectFrom('inventory_movements')
    .select(['fulfillment_id', 'quantity'])
    .where('organization_id', '=', s.shop.organizationId)
    .execute();

const shippedMail = (s: Shop) =>
  handle.db
    .selectFrom('outbox')
    .select('dedupe_key')
    .where('organization_id', '=', s.shop.organizationId)
    .where('dedupe_key', 'like', 'ORDER_SHIPPED:%')
    .execute();

describe('direct fulfillments, plans and label purchases racing on one record', () => {
  // The other requests start `delayMs` after the purchases, so that purchases also win some races.
  it.each([0, 15, 40])(
    'never exceed a line, and the counters equal what the live fulfillments hold (others %i ms later)',
    async (delayMs) => {
      const s = await createLabelShop(handle.db, clock);
      await handle.db
        .updateTable('variants')
        .set({ inventory_quantity: 50 })
        .where('id', '=', s.shop.variantId)
        .execute();
      const { provider, calls } = counted(sandbox());
      const body = await purchaseBodyFor(handle.db, s, provider);
      // One unit of the variant line in a custom box: a partial label, acknowledged as an override.
      const oneUnit = labelSelection(s, {
        lines: [{ lineId: s.variantLineId, quantity: 1 }],
        package: { lengthMm: 100, widthMm: 100, heightMm: 100, loadedWeightGrams: 400 },
      });
      const oneQuote = await quoteShippingLabel(
        handle.db,
        { organizationId: s.shop.organizationId, carrier: provider },
        shippingLabelQuoteInputSchema.parse(oneUnit),
      );
      expect(oneQuote.decision.blockers).toEqual([]);
      const oneBody = purchaseShippingLabelInputSchema.parse({
        ...oneUnit,
        selectionQuoteFingerprint: oneQuote.selectionQuoteFingerprint,
        acknowledgements: oneQuote.decision.acknowledgementsRequired,
        ...(oneQuote.decision.overrideReasonRequired ? { overrideReason: 'Own box' } : {}),
        ...(oneQuote.decision.spendReasonRequired ? { reason: 'Rush' } : {}),
      });
      const later = <T>(run: () => Promise<T>) =>
        new Promise((resolve) => setTimeout(resolve, delayMs)).then(run);
      const direct = (lines: { lineId: string; quantity: number }[]) =>
        createDirectFulfillment(
          handle.db,
          fulfillmentCtx(s),
          createDirectFulfillmentInputSchema.parse({ recordId: s.orderId, lines, notifyCustomer: true }),
          randomUUID(),
        );
      const plan = (lines: { lineId: string; quantity: number }[]) =>
        planFulfillment(
          handle.db,
          fulfillmentCtx(s),
          planFulfillmentInputSchema.parse({ recordId: s.recordId, lines }),
          randomUUID(),
        );
      const kinds = [
        'purchaseAll',
        'direct',
        'plan',
        'purchaseOne',
        'directBoth',
        'plan',
        'purchaseOne',
        'planBoth',
      ];
      const requests = Array.from({ length: 16 }, (_, index) => kinds[index % kinds.length]!);
      const results = await Promise.allSettled(
        requests.map((kind) => {
          if (kind === 'purchaseAll')
            return purchaseShippingLabel(handle.db, labelCtx(s, provider), body, randomUUID());
          if (kind === 'purchaseOne')
            return purchaseShippingLabel(handle.db, labelCtx(s, provider), oneBody, randomUUID());
          if (kind === 'direct') return later(() => direct([{ lineId: s.variantLineId, quantity: 1 }]));
          if (kind === 'plan') return later(() => plan([{ lineId: s.itemLineId, quantity: 1 }]));
          const both = [
            { lineId: s.variantLineId, quantity: 1 },
            { lineId: s.itemLineId, quantity: 1 },
          ];
          return later(() => (kind === 'directBoth' ? direct(both) : plan(both)));
        }),
      );
      for (const code of codesOf(results))
        expect(['OVER_FULFILLMENT', 'LABEL_PURCHASE_UNSETTLED']).toContain(code);
      expect(winsOf(results)).toBeGreaterThanOrEqual(1);

      for (const line of await ledger(s)) {
        expect(line.shipped + line.allocated).toBeLessThanOrEqual(line.quantity);
        expect(line.shipped).toBeGreaterThanOrEqual(0);
        expect(line.allocated).toBeGreaterThanOrEqual(0);
        expect({ shipped: line.shipped, allocated: line.allocated }).toEqual({
          shipped: line.liveShipped,
          allocated: line.liveAllocated,
        });
      }
      // One fulfillment per success; every purchase that won settled; each reached the carrier once.
      const won = (kind: string) =>
        results.filter((result, index) => result.status === 'fulfilled' && requests[index]!.startsWith(kind))
          .length;
      const fulfillments = await handle.db
        .selectFrom('fulfillments')
        .select(['origin', 'status'])
        .where('organization_id', '=', s.shop.organizationId)
        .execute();
      expect(fulfillments).toHaveLength(winsOf(results));
      expect(fulfillments.filter((row) => row.origin === 'NATIVE_LABEL')).toHaveLength(won('purchase'));
      const purchases = await handle.db
        .selectFrom('label_purchases')
        .select('status')
        .where('organization_id', '=', s.shop.organizationId)
        .execute();
      expect(purchases.map((row) => row.status)).toEqual(Array(won('purchase')).fill('PURCHASED'));
      expect(calls.purchase).toBe(won('purchase'));
      // The sandbox opens its account at the first purchase.
      const account = await handle.db
        .selectFrom('sandbox_carrier_accounts')
        .select('purchase_count')
        .where('organization_id', '=', s.shop.organizationId)
        .executeTakeFirst();
      expect(account?.purchase_count ?? 0).toBe(won('purchase'));
      // Stock moves with shipped units only, once per direct fulfillment of the variant line.
      const shippedVariant = (await ledger(s)).find((line) => line.id === s.variantLineId)!.shipped;
      expect(await stockOf(s)).toBe(50 - shippedVariant);
      const movements = await movementsOf(s);
      expect(movements.reduce((sum, row) => sum + row.quantity, 0)).toBe(shippedVariant);
      expect(movements).toHaveLength(won('direct'));
      expect(await shippedMail(s)).toHaveLength(won('direct'));
    },
  );
});

describe('two concurrent purchases on a balance that covers one', () => {
  it('one READY, one 409 INSUFFICIENT_POSTAGE_FUNDS; no funds are ever added', async () => {
    const first = await createLabelShop(handle.db, clock);
    const second = await first.another();
    const carrier = sandbox(1000);
    const bodies = await Promise.all([
      purchaseBodyFor(handle.db, first, carrier),
      purchaseBodyFor(handle.db, second, carrier),
    ]);
    const results = await Promise.allSettled(
      [first, second].map((s, index) =>
        purchaseShippingLabel(handle.db, labelCtx(s, carrier), bodies[index]!, randomUUID()),
      ),
    );
    const bought = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(bought).toHaveLength(1);
    expect(bought[0]!.body.fulfillment).toMatchObject({ status: 'READY', postage: { status: 'ACTIVE' } });
    const refused = results.flatMap((result) =>
      result.status === 'rejected' ? [result.reason as AppError] : [],
    );
    expect(refused).toHaveLength(1);
    // Whether the winner was still PENDING (an open claim) or settled (debited), 320 was available.
    expect(refused[0]).toMatchObject({
      code: 'INSUFFICIENT_POSTAGE_FUNDS',
      details: { requiredInCents: 680, availableInCents: 320, shortfallInCents: 360 },
    });
    const organizationId = first.shop.organizationId;
    expect(await sandboxAccount(handle.db, organizationId)).toEqual({
      balance_in_cents: 320,
      purchase_count: 1,
    });

    // A refusal tops nothing up: asking again is refused the same way, and the balance stays.
    const loser = bought[0]!.body.purchase.recordId === first.recordId ? second : first;
    expect(
      await rejection(
        purchaseShippingLabel(
          handle.db,
          labelCtx(loser, carrier),
          await purchaseBodyFor(handle.db, loser, carrier),
          randomUUID(),
        ),
      ),
    ).toMatchObject({ code: 'INSUFFICIENT_POSTAGE_FUNDS', details: { availableInCents: 320 } });
    expect(
      await readPostageBalance(handle.db, carrier, { organizationId, currency: 'USD' }, clock.now()),
    ).toMatchObject({ balanceInCents: 320, openClaimsInCents: 0, availableInCents: 320, autoTopUp: false });
    expect(await sandboxAccount(handle.db, organizationId)).toEqual({
      balance_in_cents: 320,
      purchase_count: 1,
    });
    const funded = await handle.db
      .selectFrom('audit_logs')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('action', '=', 'postage.sandbox_funds_added')
      .execute();
    expect(funded).toEqual([]);
  });
});

describe('a crash between the carrier call and the settlement', () => {
  it('the carrier bought it, the settle never ran: past the window concurrent reconciles settle it PURCHASED once; the key never buys twice', async () => {
    const s = await createLabelShop(handle.db, clock);
    const { provider: real, calls } = counted(sandbox());
    let bought = false;
    // The process "dies" after the carrier committed: the call never returns, nothing settles.
    const dying: CarrierProvider = {
      ...real,
      purchase: async (account, request) => {
        await real.purchase(account, request);
        bought = true;
        return new Promise(() => {});
      },
    };
    const key = randomUUID();
    const body = await purchaseBodyFor(handle.db, s, real);
    void purchaseShippingLabel(handle.db, labelCtx(s, dying), body, key);
    while (!bought) await new Promise((resolve) => setTimeout(resolve, 5));
    const { id: purchaseId } = await handle.db
      .selectFrom('label_purchases')
      .select('id')
      .where('organization_id', '=', s.shop.organizationId)
      .where('status', '=', 'PENDING')
      .executeTakeFirstOrThrow();
    const path = { orderId: s.orderId, purchaseId };

    // Inside the in-flight window: the same key is IN_PROGRESS and reconcile is refused.
    expect(await rejection(purchaseShippingLabel(handle.db, labelCtx(s, real), body, key))).toMatchObject({
      code: 'LABEL_PURCHASE_IN_PROGRESS',
    });
    expect(await rejection(reconcileLabelPurchase(handle.db, labelCtx(s, real), path))).toMatchObject({
      code: 'RECONCILE_NOT_ALLOWED',
      details: { reconciliation: { status: 'IN_FLIGHT' } },
    });
    clock.advance(120_000);
    // Past it: same-key retries are answered from the purchase, never by the carrier.
    const retries = await Promise.allSettled(
      Array.from({ length: 5 }, () => purchaseShippingLabel(handle.db, labelCtx(s, real), body, key)),
    );
    expect(codesOf(retries)).toEqual(Array(5).fill('LABEL_PURCHASE_UNCERTAIN'));
    expect(calls.purchase).toBe(1);

    const reconciles = await Promise.allSettled(
      Array.from({ length: 6 }, () => reconcileLabelPurchase(handle.db, labelCtx(s, real), path)),
    );
    expect(winsOf(reconciles)).toBe(1);
    for (const result of reconciles)
      if (result.status === 'rejected')
        expect(result.reason).toMatchObject({
          code: 'RECONCILE_NOT_ALLOWED',
          details: { reconciliation: { status: expect.stringMatching(/^(COOLING_DOWN|RESOLVED)$/) } },
        });
    expect(calls.findPurchase).toBe(1);
    const settled = reconciles.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))[0]!;
    expect(settled.purchase).toMatchObject({
      status: 'PURCHASED',
      reconciliation: { status: 'RESOLVED', outcome: 'PURCHASED' },
    });
    expect(settled.fulfillment).toMatchObject({
      status: 'READY',
      origin: 'NATIVE_LABEL',
      postage: { source: 'NATIVE', status: 'ACTIVE', purchaseId, labelAvailable: true },
    });
    for (const line of await ledger(s)) {
      expect(line.allocated).toBe(line.quantity);
      expect(line.liveAllocated).toBe(line.quantity);
    }
    // The reconcile recorded the 201 on the key: the retry replays it, the carrier sold one label.
    const replay = await purchaseShippingLabel(handle.db, labelCtx(s, real), body, key);
    expect(replay).toMatchObject({
      replayed: true,
      body: { purchase: { id: purchaseId, status: 'PURCHASED' } },
    });
    expect(calls.purchase).toBe(1);
    expect(await sandboxAccount(handle.db, s.shop.organizationId)).toEqual({
      balance_in_cents: 10_000 - 680,
      purchase_count: 1,
    });
    expect(
      await handle.db
        .selectFrom('fulfillments')
        .select('id')
        .where('organization_id', '=', s.shop.organizationId)
        .execute(),
    ).toHaveLength(1);
  });

  it('TIMEOUT_NOT_COMMITTED: same-key retries never reach the carrier; NOT_FOUND releases the key, which then buys once', async () => {
    const s = await createLabelShop(handle.db, clock);
    const { provider, calls } = counted(sandbox());
    await behave(s, { purchase: 'TIMEOUT_NOT_COMMITTED' });
    const key = randomUUID();
    const body = await purchaseBodyFor(handle.db, s, provider);
    const first = await rejection(purchaseShippingLabel(handle.db, labelCtx(s, provider), body, key));
    expect(first.code).toBe('LABEL_PURCHASE_UNCERTAIN');
    const purchaseId = first.details.purchaseId as string;
    const retries = await Promise.allSettled(
      Array.from({ length: 5 }, () => purchaseShippingLabel(handle.db, labelCtx(s, provider), body, key)),
    );
    expect(codesOf(retries)).toEqual(Array(5).fill('LABEL_PURCHASE_UNCERTAIN'));
    expect(calls.purchase).toBe(1);
    expect(await sandboxAccount(handle.db, s.shop.organizationId)).toEqual({
      balance_in_cents: 10_000,
      purchase_count: 0,
    });

    const reconciled = await reconcileLabelPurchase(handle.db, labelCtx(s, provider), {
      orderId: s.recordId,
      purchaseId,
    });
    expect(reconciled.purchase).toMatchObject({ status: 'FAILED', failure: 'NOT_PURCHASED' });
    for (const line of await ledger(s)) expect(line.allocated).toBe(0);

    await behave(s, { purchase: 'OK' });
    const again = await Promise.allSettled(
      Array.from({ length: 5 }, () => purchaseShippingLabel(handle.db, labelCtx(s, provider), body, key)),
    );
    for (const code of codesOf(again)) expect(code).toBe('LABEL_PURCHASE_IN_PROGRESS');
    const fresh = again.flatMap((result) =>
      result.status === 'fulfilled' && !result.value.replayed ? [result.value] : [],
    );
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.body.purchase.id).not.toBe(purchaseId);
    expect(calls.purchase).toBe(2);
    expect(await sandboxAccount(handle.db, s.shop.organizationId)).toEqual({
      balance_in_cents: 10_000 - 680,
      purchase_count: 1,
    });
  });
});

describe('an exhausted cancellation', () => {
  it('concurrent carrier checks make one read and never a void; handoff stays blocked until void evidence', async () => {
    const s = await createLabelShop(handle.db, clock);
    const plain = sandbox();
    const { provider, calls } = counted(plain);
    const { body } = await purchaseShippingLabel(
      handle.db,
      labelCtx(s, plain),
      await purchaseBodyFor(handle.db, s, plain),
      randomUUID(),
    );
    const fulfillmentId = body.fulfillment.id;
    const trackingNumber = body.purchase.trackingNumber!;
    await behave(s, { void: 'PENDING' });
    const cancelCtx = {
      organizationId: s.shop.organizationId,
      actor: { userId: 'usr_owner', email: 'o@x.test' },
      clock,
    };
    const requestedAt = clock.now();
    await cancelPreparedShipment(
      handle.db,
      { ...cancelCtx, carrier: provider },
      { orderId: s.orderId, fulfillmentId },
    );
    expect(calls.requestVoid).toBe(1);
    for (const offset of VOID_POLL_OFFSETS_MS) {
      clock.set(new Date(requestedAt.getTime() + offset));
      await pollShipmentCancellations(handle.db, { carrier: plain, clock });
    }
    const handOff = () =>
      handOffFulfillment(
        handle.db,
        fulfillmentCtx(s),
        handOffFulfillmentInputSchema.parse({ recordId: s.recordId, fulfillmentId, notifyCustomer: true }),
        randomUUID(),
      );
    expect(await rejection(handOff())).toMatchObject({
      code: 'HANDOFF_BLOCKED',
      details: { reason: 'VOID_PENDING' },
    });

    const check = () =>
      checkCarrierForCancellation(
        handle.db,
        { ...cancelCtx, carrier: provider },
        { orderId: s.orderId, fulfillmentId },
      );
    const checks = await Promise.allSettled(Array.from({ length: 6 }, check));
    expect(winsOf(checks)).toBe(1);
    expect(codesOf(checks)).toEqual(Array(5).fill('CARRIER_CHECK_NOT_ALLOWED'));
    expect(calls).toMatchObject({ readLabel: 1, requestVoid: 1 });
    const voidCount = async () =>
      (
        await handle.db
          .selectFrom('sandbox_carrier_labels')
          .select('void_request_count')
          .where('organization_id', '=', s.shop.organizationId)
          .where('tracking_number', '=', trackingNumber)
          .executeTakeFirstOrThrow()
      ).void_request_count;
    expect(await voidCount()).toBe(1);
    expect(await rejection(handOff())).toMatchObject({
      code: 'HANDOFF_BLOCKED',
      details: { reason: 'VOID_PENDING' },
    });
    // A new cancel-prepared-shipment on the exhausted one sends nothing either.
    await cancelPreparedShipment(
      handle.db,
      { ...cancelCtx, carrier: provider },
      { orderId: s.orderId, fulfillmentId },
    );
    expect(calls.requestVoid).toBe(1);

    clock.advance(60_000);
    await settleSandboxVoid(handle.db, control(s), { trackingNumber, outcome: 'VOIDED' });
    const closed = await check();
    expect(closed).toMatchObject({
      postage: null,
      cancellation: { status: 'VOIDED', evidence: { source: 'CARRIER_CHECK' } },
    });
    expect(calls).toMatchObject({ readLabel: 2, requestVoid: 1 });
    expect(await voidCount()).toBe(1);
    expect(await rejection(handOff())).toMatchObject({
      code: 'HANDOFF_BLOCKED',
      details: { reason: 'POSTAGE_RETIRED' },
    });
    const audit = await handle.db
      .selectFrom('audit_logs')
      .select(['action', 'metadata'])
      .where('organization_id', '=', s.shop.organizationId)
      .where('action', '=', 'shipping_label.carrier_checked')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.metadata)).toMatchObject([
      { fulfillmentId, result: 'STILL_PENDING' },
      { fulfillmentId, result: 'VOIDED' },
    ]);
  });
});

describe('cancel against cancel and handoff', () => {
  it.each([1, 2])(
    'a READY fulfillment raced by cancels and handoffs moves once; nothing is released or consumed twice (round %i)',
    async () => {
      const s = await createLabelShop(handle.db, clock);
      await handle.db
        .updateTable('variants')
        .set({ inventory_quantity: 10 })
        .where('id', '=', s.shop.variantId)
        .execute();
      const planned = await planFulfillment(
        handle.db,
        fulfillmentCtx(s),
        planFulfillmentInputSchema.parse({ recordId: s.recordId, lines: allLines(s) }),
        randomUUID(),
      );
      const path = { recordId: s.recordId, fulfillmentId: planned.body.id };
      await attachExternalPostage(handle.db, fulfillmentCtx(s), {
        ...path,
        carrier: 'DHL',
        trackingNumber: 'JD1',
      });
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, index) =>
          index % 2 === 0
            ? cancelFulfillment(handle.db, fulfillmentCtx(s), { ...path, reason: 'Changed mind' })
            : handOffFulfillment(
                handle.db,
                fulfillmentCtx(s),
                handOffFulfillmentInputSchema.parse({ ...path, notifyCustomer: true }),
                randomUUID(),
              ),
        ),
      );
      expect(winsOf(results)).toBe(1);
      expect(codesOf(results)).toEqual(Array(9).fill('INVALID_STATE_TRANSITION'));
      const cancelWon = results.findIndex((result) => result.status === 'fulfilled') % 2 === 0;
      for (const line of await ledger(s)) {
        expect(line.allocated).toBe(0);
        expect(line.shipped).toBe(cancelWon ? 0 : line.quantity);
        expect({ shipped: line.shipped, allocated: line.allocated }).toEqual({
          shipped: line.liveShipped,
          allocated: line.liveAllocated,
        });
      }
      expect(await stockOf(s)).toBe(cancelWon ? 10 : 7);
      expect(await movementsOf(s)).toHaveLength(cancelWon ? 0 : 1);
      expect(await shippedMail(s)).toHaveLength(cancelWon ? 0 : 1);
      const audit = await handle.db
        .selectFrom('audit_logs')
        .select(['action', 'metadata'])
        .where('organization_id', '=', s.shop.organizationId)
        .where('action', 'in', ['fulfillment.cancelled', 'fulfillment.handed_off'])
        .execute();
      expect(audit).toHaveLength(1);
      if (cancelWon)
        expect(audit[0]).toMatchObject({
          action: 'fulfillment.cancelled',
          metadata: {
            fulfillmentId: planned.body.id,
            recordId: s.recordId,
            fromStatus: 'READY',
            reason: 'Changed mind',
          },
        });
      else
        expect(audit[0]).toMatchObject({
          action: 'fulfillment.handed_off',
          metadata: { notifyCustomer: true },
        });
    },
  );

  it('a voided native label’s fulfillment cancelled concurrently releases its allocation once', async () => {
    const s = await createLabelShop(handle.db, clock);
    const carrier = sandbox();
    const { body } = await purchaseShippingLabel(
      handle.db,
      labelCtx(s, carrier),
      await purchaseBodyFor(handle.db, s, carrier),
      randomUUID(),
    );
    await cancelPreparedShipment(
      handle.db,
      {
        organizationId: s.shop.organizationId,
        actor: { userId: 'usr_owner', email: 'o@x.test' },
        clock,
        carrier,
      },
      { orderId: s.orderId, fulfillmentId: body.fulfillment.id },
    );
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        cancelFulfillment(handle.db, fulfillmentCtx(s), {
          recordId: s.orderId,
          fulfillmentId: body.fulfillment.id,
        }),
      ),
    );
    expect(winsOf(results)).toBe(1);
    expect(codesOf(results)).toEqual(Array(5).fill('INVALID_STATE_TRANSITION'));
    for (const line of await ledger(s))
      expect(line).toMatchObject({ shipped: 0, allocated: 0, liveAllocated: 0 });
  });
});
