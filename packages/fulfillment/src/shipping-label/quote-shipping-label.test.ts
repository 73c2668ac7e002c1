import { type AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { TEST_EMAIL_CONFIG } from '@commerce/orders/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelShop, SHIP_TO, type Shop } from '../../test/labels.ts';
import { withCarrierDeadline } from '../carrier/carrier-deadline.ts';
import type { CarrierProvider, CarrierResult } from '../carrier/carrier-provider.ts';
import { createCarrierProvider } from '../carrier/create-carrier-provider.ts';
import { addSandboxFunds, updateSandboxCarrier } from '../carrier/sandbox-control.ts';
import { planFulfillment } from '../fulfillments/plan-fulfillment.ts';
import { planFulfillmentInputSchema } from '../fulfillments/schemas.ts';
import { classifyLabel, type LabelFacts } from './classify-label.ts';
import { fundingPreflight, readPostageBalance } from './funding.ts';
import { quoteShippingLabel } from './quote-shipping-label.ts';
import { shippingLabelQuoteInputSchema } from './schemas.ts';

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

const shopWithOrder = (options: Parameters<typeof createLabelShop>[2] = {}) =>
  createLabelShop(handle.db, clock, options);

const allLines = (s: Shop) => [
  { lineId: s.variantLineId, quantity: 3 },
  { lineId: s.itemLineId, quantity: 2 },
];
const body = (s: Shop, changes: Record<string, unknown> = {}) =>
  shippingLabelQuoteInputSchema.parse({
    orderId: s.orderId,
    lines: allLines(s),
    package: { boxPresetId: s.towerId, loadedWeightGrams: 1400 },
    carrier: 'sandbox',
    service: 'GROUND',
    ...changes,
  });
const quote = (s: Shop, changes: Record<string, unknown> = {}, provider = carrier) =>
  quoteShippingLabel(
    handle.db,
    { organizationId: s.shop.organizationId, carrier: provider },
    body(s, changes),
  );
const account = (s: Shop) => ({ organizationId: s.shop.organizationId, currency: 'USD' });

async function insertPurchase(s: Shop, status: 'PENDING' | 'UNCERTAIN' | 'FAILED', chargeInCents: number) {
  await handle.db
    .insertInto('label_purchases')
    .values({
      organization_id: s.shop.organizationId,
      id: `lbp_${status}_${chargeInCents}_${Math.random().toString(36).slice(2)}`,
      sales_record_id: s.recordId,
      order_id: s.orderId,
      fulfillment_id: null,
      status,
      failure: status === 'FAILED' ? 'DECLINED' : null,
      carrier: 'sandbox',
      service: 'GROUND',
      charge_in_cents: chargeInCents,
      currency: 'USD',
      lines: JSON.stringify([{ lineId: s.itemLineId, quantity: 1 }]),
      package: JSON.stringify({}),
      selection_fingerprint: 'sqf1_x',
      classification: 'STANDARD',
      claimed_at: clock.now(),
    })
    .execute();
}

describe('classifyLabel', () => {
  const facts = (changes: Partial<LabelFacts> = {}): LabelFacts => ({
    blockers: [],
    chargeInCents: 680,
    collectedShippingInCents: 1000,
    isPackageOverride: false,
    isWeightBelowCatalog: false,
    ...changes,
  });
  it.each([
    [{}, 'STANDARD', [], false, false],
    [{ blockers: [{ code: 'SHIP_TO_ADDRESS_MISSING' as const, message: 'x' }] }, 'BLOCKED', [], false, false],
    [{ chargeInCents: 5000, collectedShippingInCents: 10_000 }, 'HIGH_RISK', [], false, true],
    [{ chargeInCents: 4999, collectedShippingInCents: 10_000 }, 'STANDARD', [], false, false],
    // Over 3 times the collected 200 is high risk, and over the collected needs its acknowledgement.
    [
      { chargeInCents: 601, collectedShippingInCents: 200 },
      'HIGH_RISK',
      ['CHARGE_EXCEEDS_COLLECTED_SHIPPING'],
      false,
      true,
    ],
    [
      { chargeInCents: 600, collectedShippingInCents: 200 },
      'REVIEW_REQUIRED',
      ['CHARGE_EXCEEDS_COLLECTED_SHIPPING'],
      false,
      false,
    ],
    [{ isPackageOverride: true }, 'REVIEW_REQUIRED', ['PACKAGE_OVERRIDE'], true, false],
    [{ isWeightBelowCatalog: true }, 'REVIEW_REQUIRED', ['WEIGHT_BELOW_CATALOG'], true, false],
    [{ chargeInCents: null, isPackageOverride: true }, 'REVIEW_REQUIRED', ['PACKAGE_OVERRIDE'], true, false],
    [
      { blockers: [{ code: 'LINES_UNAVAILABLE' as const, message: 'x' }], chargeInCents: 9000 },
      'BLOCKED',
      ['CHARGE_EXCEEDS_COLLECTED_SHIPPING'],
      false,
      true,
    ],
  ] as const)(
    '%j is %s, acknowledgements %j, override reason %s, spend reason %s',
    (changes, classification, acks, override, spend) => {
      const decision = classifyLabel(facts(changes as Partial<LabelFacts>));
      expect(decision).toMatchObject({
        classification,
        acknowledgementsRequired: acks,
        overrideReasonRequired: override,
        spendReasonRequired: spend,
      });
    },
  );
});

describe('quoteShippingLabel', () => {
  it('quotes the proven fit as STANDARD with a stable fingerprint, by either id, writing nothing', async () => {
    const s = await shopWithOrder();
    const first = await quote(s);
    expect(first).toMatchObject({
      carrier: 'sandbox',
      service: 'GROUND',
      serviceName: 'Sandbox Ground',
      chargeInCents: 680,
      currency: 'USD',
      billableWeightGrams: 1400,
      package: {
        source: 'PRESET',
        boxPresetId: s.towerId,
        boxPresetRevision: 1,
        outer: { lengthMm: 100, widthMm: 100, heightMm: 250 },
        loadedWeightGrams: 1400,
        catalogWeightGrams: 1300,
        recommendedBoxPresetId: s.towerId,
      },
      funding: {
        status: 'SUFFICIENT',
        fundingModel: 'PREPAID_BALANCE',
        balanceInCents: 10_000,
        openClaimsInCents: 0,
        availableInCents: 10_000,
        shortfallInCents: 0,
        autoTopUp: false,
      },
      decision: {
        classification: 'STANDARD',
        acknowledgementsRequired: [],
        overrideReasonRequired: false,
        spendReasonRequired: false,
        blockers: [],
      },
    });
    expect(first.selectionQuoteFingerprint).toMatch(/^sqf1_[A-Za-z0-9_-]{43}$/);
    // The same selection by the record's id, lines in another order, after a top-up: the same fingerprint.
    await addSandboxFunds(
      handle.db,
      { ...s.shop.ctx(), currency: 'USD', startingBalanceInCents: 10_000 },
      { amountInCents: 500 },
    );
    const again = await quote(s, { orderId: s.recordId, lines: [...allLines(s)].reverse() });
    expect(again.selectionQuoteFingerprint).toBe(first.selectionQuoteFingerprint);
    expect(again.funding.balanceInCents).toBe(10_500);
    const purchases = await handle.db
      .selectFrom('label_purchases')
      .select('id')
      .where('organization_id', '=', s.shop.organizationId)
      .execute();
    expect(purchases).toEqual([]);
  });

  it('binds the fingerprint to what the purchase spends on', async () => {
    const s = await shopWithOrder();
    const base = (await quote(s)).selectionQuoteFingerprint;
    const variants = await Promise.all([
      quote(s, { service: 'EXPRESS' }),
      quote(s, { package: { boxPresetId: s.towerId, loadedWeightGrams: 1401 } }),
      quote(s, { lines: [{ lineId: s.variantLineId, quantity: 3 }] }),
    ]);
    const fingerprints = new Set([base, ...variants.map((v) => v.selectionQuoteFingerprint)]);
    expect(fingerprints.size).toBe(4);
    await handle.db
      .updateTable('sales_records')
      .set({ shipping_address: JSON.stringify({ ...SHIP_TO, line1: '3 Main St' }) })
      .where('id', '=', s.recordId)
      .execute();
    expect((await quote(s)).selectionQuoteFingerprint).not.toBe(base);
    // Normalisation: case and spacing do not change the address.
    await handle.db
      .updateTable('sales_records')
      .set({ shipping_address: JSON.stringify({ ...SHIP_TO, line1: ' 2  MAIN st ' }) })
      .where('id', '=', s.recordId)
      .execute();
    expect((await quote(s)).selectionQuoteFingerprint).toBe(base);
  });

  it('requires acknowledgements for a custom package, a light weight and a charge over the collected shipping', async () => {
    const s = await shopWithOrder({ collectedShippingInCents: 600 });
    // A worked example as a custom package: 1200 g billable, 680.
    const custom = await quote(s, {
      package: { lengthMm: 300, widthMm: 200, heightMm: 100, loadedWeightGrams: 900 },
    });
    expect(custom).toMatchObject({
      chargeInCents: 680,
      billableWeightGrams: 1200,
      package: {
        source: 'CUSTOM',
        boxPresetId: null,
        boxPresetRevision: null,
        recommendedBoxPresetId: s.towerId,
      },
      decision: {
        classification: 'REVIEW_REQUIRED',
        acknowledgementsRequired: [
          'PACKAGE_OVERRIDE',
          'WEIGHT_BELOW_CATALOG',
          'CHARGE_EXCEEDS_COLLECTED_SHIPPING',
        ],
        overrideReasonRequired: true,
        spendReasonRequired: false,
      },
    });
    expect(custom.selectionQuoteFingerprint).toMatch(/^sqf1_/);
    const light = await quote(s, { package: { boxPresetId: s.towerId, loadedWeightGrams: 1399 } });
    expect(light.decision.acknowledgementsRequired).toEqual([
      'WEIGHT_BELOW_CATALOG',
      'CHARGE_EXCEEDS_COLLECTED_SHIPPING',
    ]);
  });

  it('is HIGH_RISK at 5000 or more, or over 3 times the collected shipping', async () => {
    const free = await shopWithOrder({ collectedShippingInCents: 0 });
    expect((await quote(free)).decision).toMatchObject({
      classification: 'HIGH_RISK',
      spendReasonRequired: true,
    });
    const paid = await shopWithOrder({ collectedShippingInCents: 100_000 });
    const overnight = await quote(paid, {
      service: 'OVERNIGHT',
      package: { boxPresetId: paid.towerId, loadedWeightGrams: 9000 },
    });
    expect(overnight).toMatchObject({
      chargeInCents: 2900 + 300 * 18,
      decision: { classification: 'HIGH_RISK', spendReasonRequired: true },
    });
  });

  it('answers blockers in a 200: addresses missing (no charge, no fingerprint, funding unknown)', async () => {
    const s = await shopWithOrder({ shipFrom: false, shipTo: false });
    const blocked = await quote(s);
    expect(blocked).toMatchObject({
      selectionQuoteFingerprint: null,
      chargeInCents: null,
      currency: null,
      billableWeightGrams: null,
      funding: { status: 'UNKNOWN', balanceInCents: null, availableInCents: null, shortfallInCents: null },
      decision: { classification: 'BLOCKED' },
    });
    expect(blocked.decision.blockers.map((b) => b.code)).toEqual([
      'SHIP_FROM_ADDRESS_MISSING',
      'SHIP_TO_ADDRESS_MISSING',
    ]);
  });

  it('answers route and package refusals as blockers, with the charge unknown', async () => {
    const s = await shopWithOrder();
    await handle.db
      .updateTable('sales_records')
      .set({ shipping_address: JSON.stringify({ ...SHIP_TO, country: 'CA' }) })
      .where('id', '=', s.recordId)
      .execute();
    const abroad = await quote(s, { service: 'OVERNIGHT' });
    expect(abroad.decision.blockers.map((b) => b.code)).toEqual(['SERVICE_UNAVAILABLE']);
    expect(abroad.selectionQuoteFingerprint).toBeNull();
    const huge = await quote(s, {
      package: { lengthMm: 1600, widthMm: 100, heightMm: 100, loadedWeightGrams: 1400 },
    });
    expect(huge.decision.blockers.map((b) => b.code)).toEqual(['PACKAGE_EXCEEDS_SERVICE_LIMITS']);
    // Abroad by GROUND: rated with the 1500 surcharge.
    expect((await quote(s)).chargeInCents).toBe(2180);
  });

  it('blocks lines with too few units left and an unfulfillable order', async () => {
    const s = await shopWithOrder();
    const over = await quote(s, { lines: [{ lineId: s.itemLineId, quantity: 3 }] });
    expect(over.decision.blockers.map((b) => b.code)).toEqual(['LINES_UNAVAILABLE']);
    await handle.db.updateTable('orders').set({ status: 'CANCELLED' }).where('id', '=', s.orderId).execute();
    const cancelled = await quote(s);
    expect(cancelled.decision.blockers.map((b) => b.code)).toEqual(['ORDER_NOT_FULFILLABLE']);
    // A blocked quote still prices the label when it can.
    expect(cancelled.chargeInCents).toBe(680);
  });

  it('labels a planned fulfillment with its own lines, and refuses other lines or a fulfillment of another record', async () => {
    const s = await shopWithOrder();
    const planned = await planFulfillment(
      handle.db,
      { ...s.shop.ctx(), email: TEST_EMAIL_CONFIG },
      planFulfillmentInputSchema.parse({ recordId: s.recordId, lines: allLines(s) }),
      'quote-plan-key-0001',
    );
    const fulfillmentId = planned.body.id;
    const labelled = await quote(s, { fulfillmentId });
    expect(labelled.decision.blockers).toEqual([]);
    // Without it, the same lines have no units left: they are planned.
    expect((await quote(s)).decision.blockers.map((b) => b.code)).toEqual(['LINES_UNAVAILABLE']);
    await expect(
      quote(s, { fulfillmentId, lines: [{ lineId: s.itemLineId, quantity: 2 }] }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const other = await shopWithOrder();
    await expect(quote(other, { fulfillmentId })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('blocks lines an unsettled purchase holds, and counts open claims against the balance', async () => {
    const s = await shopWithOrder();
    await insertPurchase(s, 'FAILED', 9000);
    expect((await quote(s)).decision.blockers).toEqual([]);
    await insertPurchase(s, 'UNCERTAIN', 9000);
    await insertPurchase(s, 'PENDING', 500);
    const held = await quote(s);
    expect(held.decision.blockers.map((b) => b.code)).toEqual(['LINES_HELD_BY_UNSETTLED_PURCHASE']);
    expect(held.funding).toEqual({
      status: 'INSUFFICIENT',
      fundingModel: 'PREPAID_BALANCE',
      balanceInCents: 10_000,
      openClaimsInCents: 9500,
      availableInCents: 500,
      shortfallInCents: 180,
      autoTopUp: false,
    });
    // Lines no purchase holds are not blocked; funding still counts every open claim.
    const free = await quote(s, { lines: [{ lineId: s.variantLineId, quantity: 3 }] });
    expect(free.decision.blockers).toEqual([]);
    expect(free.funding.status).toBe('INSUFFICIENT');
  });

  it('refuses what is not a selection with 400, an unknown record with 404', async () => {
    const s = await shopWithOrder();
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'OK',
        (error: AppError) => `${error.code} ${JSON.stringify(error.details ?? {})}`,
      );
    expect(await codeOf(quote(s, { carrier: 'ups' }))).toContain('VALIDATION_FAILED');
    expect(await codeOf(quote(s, { service: 'FREIGHT' }))).toContain('"path":"service"');
    expect(
      await codeOf(quote(s, { package: { boxPresetId: 'box_unknown', loadedWeightGrams: 10 } })),
    ).toContain('"path":"package.boxPresetId"');
    expect(await codeOf(quote(s, { lines: [{ lineId: 'sli_unknown', quantity: 1 }] }))).toContain(
      '"path":"lines.0.lineId"',
    );
    expect(await codeOf(quote(s, { orderId: 'ord_unknown' }))).toContain('RESOURCE_NOT_FOUND');
    const other = await shopWithOrder();
    expect(await codeOf(quote(s, { orderId: other.orderId }))).toContain('RESOURCE_NOT_FOUND');
    expect(() =>
      shippingLabelQuoteInputSchema.parse({
        ...body(s),
        package: { lengthMm: 3001, widthMm: 1, heightMm: 1, loadedWeightGrams: 1 },
      }),
    ).toThrow();
    expect(() =>
      shippingLabelQuoteInputSchema.parse({
        ...body(s),
        package: { boxPresetId: s.towerId, loadedWeightGrams: 150_001 },
      }),
    ).toThrow();
  });

  it('is 503 when the carrier cannot rate (down or past the deadline), 502 when it refuses otherwise', async () => {
    const s = await shopWithOrder();
    const control = { ...s.shop.ctx(), currency: 'USD', startingBalanceInCents: 10_000 };
    await updateSandboxCarrier(handle.db, control, { behaviours: { rate: 'UNAVAILABLE' } });
    await expect(quote(s)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await updateSandboxCarrier(handle.db, control, { behaviours: { rate: 'OK', balance: 'UNAVAILABLE' } });
    expect((await quote(s)).funding).toMatchObject({ status: 'UNKNOWN', balanceInCents: null });

    const answering = (rate: () => Promise<CarrierResult<never>>): CarrierProvider => ({ ...carrier, rate });
    const slow = withCarrierDeadline(
      answering(
        () => new Promise((resolve) => setTimeout(() => resolve({ kind: 'UNAVAILABLE', message: '' }), 500)),
      ),
      20,
    );
    await expect(quote(s, {}, slow)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    const refusing = answering(async () => ({
      kind: 'REJECTED',
      providerCode: 'ACCOUNT_SUSPENDED',
      message: 'no',
    }));
    await expect(quote(s, {}, refusing)).rejects.toMatchObject({
      code: 'PROVIDER_ERROR',
      details: { providerCode: 'ACCOUNT_SUSPENDED' },
    });
  });
});

describe('funding preflight', () => {
  it('passes when the balance less open claims covers the charge, else 409 with the shortfall', async () => {
    const s = await shopWithOrder();
    expect(await fundingPreflight(handle.db, carrier, account(s), 10_000)).toEqual({
      balanceInCents: 10_000,
      currency: 'USD',
    });
    await insertPurchase(s, 'PENDING', 4000);
    await insertPurchase(s, 'FAILED', 4000);
    const short = fundingPreflight(handle.db, carrier, account(s), 6001);
    await expect(short).rejects.toMatchObject({
      code: 'INSUFFICIENT_POSTAGE_FUNDS',
      details: { requiredInCents: 6001, availableInCents: 6000, shortfallInCents: 1 },
    });
    expect(await fundingPreflight(handle.db, carrier, account(s), 6000)).toMatchObject({
      balanceInCents: 10_000,
    });
    expect(await readPostageBalance(handle.db, carrier, account(s), clock.now())).toEqual({
      carrier: 'sandbox',
      fundingModel: 'PREPAID_BALANCE',
      balanceInCents: 10_000,
      openClaimsInCents: 4000,
      availableInCents: 6000,
      currency: 'USD',
      autoTopUp: false,
      checkedAt: clock.now().toISOString(),
    });
  });

  it('never spends blind: a failed balance read is 503', async () => {
    const s = await shopWithOrder();
    await updateSandboxCarrier(
      handle.db,
      { ...s.shop.ctx(), currency: 'USD', startingBalanceInCents: 10_000 },
      { behaviours: { balance: 'UNAVAILABLE' } },
    );
    await expect(fundingPreflight(handle.db, carrier, account(s), 1)).rejects.toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
    });
    await expect(readPostageBalance(handle.db, carrier, account(s), clock.now())).rejects.toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
    });
  });
});
