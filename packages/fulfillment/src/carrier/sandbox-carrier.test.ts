import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCarrierDeadline, withDeadline } from './carrier-deadline.ts';
import type { CarrierAccount, CarrierProvider, CarrierResult, RateRequest } from './carrier-provider.ts';
import { CarrierNotSentError } from './carrier-provider.ts';
import { createCarrierProvider } from './create-carrier-provider.ts';
import { createSandboxCarrier } from './sandbox-carrier.ts';
import {
  addSandboxFunds,
  readSandboxCarrier,
  settleSandboxVoid,
  updateSandboxCarrier,
} from './sandbox-control.ts';
import { SANDBOX_LABEL_MARK, sandboxTrackingNumber } from './sandbox-label.ts';
import { sandboxCharge } from './sandbox-services.ts';
import type { SandboxControlContext } from './schemas.ts';

let handle: DatabaseHandle;
let carrier: CarrierProvider;
const clock = new ManualClock('2026-11-26T09:00:00.000Z');
const STARTING_BALANCE = 10_000;

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 10 });
  carrier = createCarrierProvider(
    { carrier: { provider: 'sandbox', timeoutMs: 5000, sandboxStartingBalanceInCents: STARTING_BALANCE } },
    { db: handle.db, clock },
  );
});
afterAll(async () => {
  await handle.close();
});

let sequence = 0;
async function tenant(): Promise<{ account: CarrierAccount; control: () => SandboxControlContext }> {
  sequence += 1;
  const organizationId = `org_sbx_${process.pid}_${sequence}`;
  await handle.db
    .insertInto('organizations')
    .values({ id: organizationId, slug: `sbx-${process.pid}-${sequence}`, name: 'Carrier shop' })
    .execute();
  return {
    account: { organizationId, currency: 'USD' },
    control: () => ({
      organizationId,
      actor: { userId: 'usr_sbx', email: 'owner@sbx.test' },
      at: clock.now(),
      currency: 'USD',
      startingBalanceInCents: STARTING_BALANCE,
    }),
  };
}

const address = (country: string) => ({
  name: 'Ada',
  line1: '1 Main St',
  city: 'Springfield',
  postalCode: '12345',
  country,
});
const request = (changes: Partial<RateRequest> = {}): RateRequest => ({
  service: 'GROUND',
  parcel: { lengthMm: 300, widthMm: 200, heightMm: 100, weightGrams: 900 },
  shipFrom: address('US'),
  shipTo: address('US'),
  ...changes,
});

function expectOk<T>(result: CarrierResult<T>): T {
  if (result.kind !== 'OK') throw new Error(`expected OK, got ${JSON.stringify(result)}`);
  return result.value;
}

describe('sandbox charge', () => {
  const parcel = (lengthMm: number, widthMm: number, heightMm: number, weightGrams: number) => ({
    lengthMm,
    widthMm,
    heightMm,
    weightGrams,
  });
  it.each([
    // A worked example: volumetric 1200 g beats 900 g; 500 + 60 × 3.
    ['GROUND', parcel(300, 200, 100, 900), 'US', 'US', { chargeInCents: 680, billableWeightGrams: 1200 }],
    ['GROUND', parcel(300, 200, 100, 900), 'US', 'CA', { chargeInCents: 2180, billableWeightGrams: 1200 }],
    ['GROUND', parcel(100, 100, 100, 500), 'US', 'US', { chargeInCents: 560, billableWeightGrams: 500 }],
    ['GROUND', parcel(100, 100, 100, 501), 'US', 'US', { chargeInCents: 620, billableWeightGrams: 501 }],
    ['EXPRESS', parcel(100, 100, 100, 2000), 'DE', 'DE', { chargeInCents: 1800, billableWeightGrams: 2000 }],
    ['OVERNIGHT', parcel(100, 100, 100, 1), 'US', 'us', { chargeInCents: 3200, billableWeightGrams: 200 }],
    [
      'OVERNIGHT',
      parcel(100, 100, 100, 10_000),
      'US',
      'US',
      { chargeInCents: 8900, billableWeightGrams: 10_000 },
    ],
    [
      'GROUND',
      parcel(1500, 10, 10, 30_000),
      'US',
      'US',
      { chargeInCents: 4100, billableWeightGrams: 30_000 },
    ],
  ])('%s %j %s→%s is %j', (service, box, from, to, expected) => {
    expect(sandboxCharge(service, box, from, to)).toEqual({ status: 'OK', ...expected });
  });

  it.each([
    ['OVERNIGHT', parcel(100, 100, 100, 100), 'US', 'CA', 'SERVICE_UNAVAILABLE'],
    ['OVERNIGHT', parcel(100, 100, 100, 10_001), 'US', 'US', 'PACKAGE_EXCEEDS_SERVICE_LIMITS'],
    ['GROUND', parcel(1501, 10, 10, 100), 'US', 'US', 'PACKAGE_EXCEEDS_SERVICE_LIMITS'],
    ['GROUND', parcel(100, 100, 100, 30_001), 'US', 'US', 'PACKAGE_EXCEEDS_SERVICE_LIMITS'],
    // Volumetric over the maximum: 1000 × 600 × 300 / 5000 = 36000 g.
    ['EXPRESS', parcel(1000, 600, 300, 100), 'US', 'US', 'PACKAGE_EXCEEDS_SERVICE_LIMITS'],
    ['FREIGHT', parcel(100, 100, 100, 100), 'US', 'US', 'UNKNOWN_SERVICE'],
  ])('%s %j %s→%s is refused with %s', (service, box, from, to, providerCode) => {
    expect(sandboxCharge(service, box, from, to)).toEqual({ status: 'REJECTED', providerCode });
  });
});

describe('the deadline and result kinds', () => {
  const slow = <T>(value: CarrierResult<T>, ms: number) =>
    new Promise<CarrierResult<T>>((resolve) => setTimeout(() => resolve(value), ms));

  it('answers in time as the call answered', async () => {
    expect(await withDeadline(200, () => slow({ kind: 'OK', value: 1 }, 5))).toEqual({
      kind: 'OK',
      value: 1,
    });
    expect(
      await withDeadline(200, async () => ({ kind: 'REJECTED', providerCode: 'DECLINED', message: 'no' })),
    ).toMatchObject({ kind: 'REJECTED', providerCode: 'DECLINED' });
  });

  it('is UNCERTAIN past the deadline: the request may be at the carrier', async () => {
    const started = Date.now();
    const result = await withDeadline(30, () => slow({ kind: 'OK', value: 1 }, 1000));
    expect(result.kind).toBe('UNCERTAIN');
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('is UNAVAILABLE for a call that knows it sent nothing, UNCERTAIN for any other failure; never throws', async () => {
    expect(
      await withDeadline(100, async () => {
        throw new CarrierNotSentError('connection refused');
      }),
    ).toEqual({ kind: 'UNAVAILABLE', message: 'connection refused' });
    expect(
      (
        await withDeadline(100, async () => {
          throw new Error('socket hang up');
        })
      ).kind,
    ).toBe('UNCERTAIN');
    expect(
      (
        await withDeadline(100, () => {
          throw new Error('synchronous');
        })
      ).kind,
    ).toBe('UNCERTAIN');
  });

  it('puts every call of a provider under the deadline', async () => {
    const never = () => new Promise<never>(() => {});
    const hanging: CarrierProvider = {
      carrier: 'hanging',
      services: () => [],
      rate: never,
      balance: never,
      purchase: never,
      findPurchase: never,
      requestVoid: never,
      readLabel: never,
      labelDocument: never,
    };
    const guarded = withCarrierDeadline(hanging, 20);
    const account = { organizationId: 'org_x', currency: 'USD' };
    const label = { trackingNumber: 'SBX0' };
    const results = await Promise.all([
      guarded.rate(account, request()),
      guarded.balance(account),
      guarded.purchase(account, { ...request(), clientReference: 'lbp_x' }),
      guarded.findPurchase(account, 'lbp_x'),
      guarded.requestVoid(account, label),
      guarded.readLabel(account, label),
      guarded.labelDocument(account, label),
    ]);
    expect(results.map((result) => result.kind)).toEqual(Array(7).fill('UNCERTAIN'));
  });
});

describe('the sandbox carrier', () => {
  it('rates the worked example and opens no account to do so', async () => {
    const { account } = await tenant();
    expect(expectOk(await carrier.rate(account, request()))).toEqual({
      service: 'GROUND',
      chargeInCents: 680,
      currency: 'USD',
      billableWeightGrams: 1200,
    });
    expect(
      await carrier.rate(account, request({ service: 'OVERNIGHT', shipTo: address('CA') })),
    ).toMatchObject({
      kind: 'REJECTED',
      providerCode: 'SERVICE_UNAVAILABLE',
    });
    expect(expectOk(await carrier.balance(account))).toEqual({
      balanceInCents: STARTING_BALANCE,
      currency: 'USD',
    });
    const accounts = await handle.db
      .selectFrom('sandbox_carrier_accounts')
      .select('organization_id')
      .where('organization_id', '=', account.organizationId)
      .execute();
    expect(accounts).toEqual([]);
  });

  it('sells a label once per client reference, debits it, and renders a 4 × 6 in sandbox PDF', async () => {
    const { account, control } = await tenant();
    const purchase = { ...request(), clientReference: 'lbp_first' };
    const label = expectOk(await carrier.purchase(account, purchase));
    expect(label).toEqual({
      trackingNumber: sandboxTrackingNumber('lbp_first'),
      trackingUrl: `https://sandbox-carrier.invalid/track/${sandboxTrackingNumber('lbp_first')}`,
      clientReference: 'lbp_first',
      service: 'GROUND',
      chargeInCents: 680,
      currency: 'USD',
    });
    expect(label.trackingNumber).toMatch(/^SBX[0-9A-F]{16}$/);
    expect(expectOk(await carrier.purchase(account, purchase))).toEqual(label);
    expect(expectOk(await carrier.balance(account)).balanceInCents).toBe(STARTING_BALANCE - 680);
    expect(expectOk(await carrier.findPurchase(account, 'lbp_first'))).toEqual({
      status: 'PURCHASED',
      label,
    });
    expect(expectOk(await carrier.findPurchase(account, 'lbp_other'))).toEqual({ status: 'NOT_FOUND' });

    const bytes = expectOk(await carrier.labelDocument(account, label));
    expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe('%PDF-');
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    expect(pdf.getSubject()).toBe(SANDBOX_LABEL_MARK);
    expect(pdf.getTitle()).toBe(`Sandbox label ${label.trackingNumber}`);
    expect(Buffer.from(expectOk(await carrier.labelDocument(account, label)))).toEqual(Buffer.from(bytes));

    const console = await readSandboxCarrier(handle.db, control());
    expect(console).toMatchObject({ balanceInCents: STARTING_BALANCE - 680, purchaseCount: 1 });
    expect(console.labels).toEqual([
      {
        trackingNumber: label.trackingNumber,
        purchaseId: 'lbp_first',
        status: 'ACTIVE',
        voidRequestCount: 0,
      },
    ]);
  });

  it('sells one label and debits once when the same reference is bought concurrently', async () => {
    const { account } = await tenant();
    const purchase = { ...request(), clientReference: 'lbp_race' };
    const results = await Promise.all(Array.from({ length: 6 }, () => carrier.purchase(account, purchase)));
    const labels = results.map(expectOk);
    expect(new Set(labels.map((label) => label.trackingNumber)).size).toBe(1);
    expect(expectOk(await carrier.balance(account)).balanceInCents).toBe(STARTING_BALANCE - 680);
  });

  it('refuses a label the balance does not cover', async () => {
    const { account } = await tenant();
    const heavy = {
      ...request({ service: 'OVERNIGHT' }),
      parcel: { lengthMm: 100, widthMm: 100, heightMm: 100, weightGrams: 10_000 },
    };
    expectOk(await carrier.purchase(account, { ...heavy, clientReference: 'lbp_a' }));
    expect(await carrier.purchase(account, { ...heavy, clientReference: 'lbp_b' })).toMatchObject({
      kind: 'REJECTED',
      providerCode: 'INSUFFICIENT_FUNDS',
    });
    expect(expectOk(await carrier.balance(account)).balanceInCents).toBe(STARTING_BALANCE - 8900);
  });

  it.each([
    ['DECLINED', 'REJECTED', false],
    ['UNAVAILABLE', 'UNAVAILABLE', false],
    ['TIMEOUT_NOT_COMMITTED', 'UNCERTAIN', false],
    ['TIMEOUT_COMMITTED', 'UNCERTAIN', true],
  ] as const)('purchase behaviour %s answers %s; label recorded: %s', async (behaviour, kind, recorded) => {
    const { account, control } = await tenant();
    await updateSandboxCarrier(handle.db, control(), { behaviours: { purchase: behaviour } });
    const result = await carrier.purchase(account, { ...request(), clientReference: 'lbp_behaviour' });
    expect(result.kind).toBe(kind);
    const found = expectOk(await carrier.findPurchase(account, 'lbp_behaviour'));
    expect(found.status).toBe(recorded ? 'PURCHASED' : 'NOT_FOUND');
    expect(expectOk(await carrier.balance(account)).balanceInCents).toBe(
      STARTING_BALANCE - (recorded ? 680 : 0),
    );
  });

  it('keeps behaviours until they are changed, never for the next call only', async () => {
    const { account, control } = await tenant();
    const updated = await updateSandboxCarrier(handle.db, control(), { behaviours: { rate: 'UNAVAILABLE' } });
    expect(updated.behaviours).toEqual({
      rate: 'UNAVAILABLE',
      balance: 'OK',
      purchase: 'OK',
      void: 'VOIDED',
      read: 'OK',
    });
    for (let call = 0; call < 3; call += 1)
      expect((await carrier.rate(account, request())).kind).toBe('UNAVAILABLE');
    await updateSandboxCarrier(handle.db, control(), { behaviours: { balance: 'UNAVAILABLE' } });
    expect((await carrier.rate(account, request())).kind).toBe('UNAVAILABLE');
    expect((await carrier.balance(account)).kind).toBe('UNAVAILABLE');
    await updateSandboxCarrier(handle.db, control(), { behaviours: { rate: 'OK', balance: 'OK' } });
    expect((await carrier.rate(account, request())).kind).toBe('OK');
    const audits = await handle.db
      .selectFrom('audit_logs')
      .select(['action', 'metadata'])
      .where('organization_id', '=', account.organizationId)
      .orderBy('id')
      .execute();
    expect(audits.map((audit) => audit.metadata)).toEqual([
      { fields: ['rate'] },
      { fields: ['balance'] },
      { fields: ['rate', 'balance'] },
    ]);
    // A change that changes nothing records nothing.
    await updateSandboxCarrier(handle.db, control(), { behaviours: { rate: 'OK' } });
    const count = await handle.db
      .selectFrom('audit_logs')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organization_id', '=', account.organizationId)
      .executeTakeFirstOrThrow();
    expect(Number(count.count)).toBe(3);
  });

  it('reads fail while `read` is UNAVAILABLE', async () => {
    const { account, control } = await tenant();
    const label = expectOk(await carrier.purchase(account, { ...request(), clientReference: 'lbp_read' }));
    await updateSandboxCarrier(handle.db, control(), { behaviours: { read: 'UNAVAILABLE' } });
    expect((await carrier.findPurchase(account, 'lbp_read')).kind).toBe('UNAVAILABLE');
    expect((await carrier.readLabel(account, label)).kind).toBe('UNAVAILABLE');
    expect((await carrier.labelDocument(account, label)).kind).toBe('UNAVAILABLE');
  });

  it.each([
    ['VOIDED', 'OK', 'VOIDED', 680],
    ['PENDING', 'OK', 'VOID_PENDING', 0],
    ['REJECTED', 'REJECTED', 'ACTIVE', 0],
    ['TIMEOUT_COMMITTED', 'UNCERTAIN', 'VOIDED', 680],
    ['TIMEOUT_PENDING', 'UNCERTAIN', 'VOID_PENDING', 0],
  ] as const)(
    'void behaviour %s answers %s and leaves the label %s (refund %d)',
    async (behaviour, kind, status, refund) => {
      const { account, control } = await tenant();
      const label = expectOk(await carrier.purchase(account, { ...request(), clientReference: 'lbp_void' }));
      await updateSandboxCarrier(handle.db, control(), { behaviours: { void: behaviour } });
      expect((await carrier.requestVoid(account, label)).kind).toBe(kind);
      expect(expectOk(await carrier.readLabel(account, label)).status).toBe(status);
      expect(expectOk(await carrier.balance(account)).balanceInCents).toBe(STARTING_BALANCE - 680 + refund);
      expect((await readSandboxCarrier(handle.db, control())).labels[0]?.voidRequestCount).toBe(1);
    },
  );

  it('settles a pending refund from the console: VOIDED credits, REJECTED stands; only while pending', async () => {
    const { account, control } = await tenant();
    await updateSandboxCarrier(handle.db, control(), { behaviours: { void: 'PENDING' } });
    const first = expectOk(await carrier.purchase(account, { ...request(), clientReference: 'lbp_s1' }));
    const second = expectOk(await carrier.purchase(account, { ...request(), clientReference: 'lbp_s2' }));
    await carrier.requestVoid(account, first);
    await carrier.requestVoid(account, second);
    await settleSandboxVoid(handle.db, control(), {
      trackingNumber: first.trackingNumber,
      outcome: 'VOIDED',
    });
    await settleSandboxVoid(handle.db, control(), {
      trackingNumber: second.trackingNumber,
      outcome: 'REJECTED',
    });
    expect(expectOk(await carrier.readLabel(account, first))).toEqual({
      status: 'VOIDED',
      rawStatus: 'sandbox:voided',
      refundAmountInCents: 680,
    });
    expect(expectOk(await carrier.readLabel(account, second)).status).toBe('VOID_REJECTED');
    expect(expectOk(await carrier.balance(account)).balanceInCents).toBe(STARTING_BALANCE - 680);
    const again = settleSandboxVoid(handle.db, control(), {
      trackingNumber: first.trackingNumber,
      outcome: 'VOIDED',
    });
    await expect(again).rejects.toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
    const unknown = settleSandboxVoid(handle.db, control(), { trackingNumber: 'SBX0', outcome: 'VOIDED' });
    await expect(unknown).rejects.toBeInstanceOf(AppError);
    await expect(unknown).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('adds funds only through the console, audited, within the ceiling', async () => {
    const { account, control } = await tenant();
    expect((await addSandboxFunds(handle.db, control(), { amountInCents: 2500 })).balanceInCents).toBe(
      STARTING_BALANCE + 2500,
    );
    expect(expectOk(await carrier.balance(account)).balanceInCents).toBe(STARTING_BALANCE + 2500);
    const audit = await handle.db
      .selectFrom('audit_logs')
      .select(['action', 'metadata'])
      .where('organization_id', '=', account.organizationId)
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({ action: 'postage.sandbox_funds_added', metadata: { amountInCents: 2500 } });
    await handle.db
      .updateTable('sandbox_carrier_accounts')
      .set({ balance_in_cents: 1_999_999_000 })
      .where('organization_id', '=', account.organizationId)
      .execute();
    await expect(addSandboxFunds(handle.db, control(), { amountInCents: 1001 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('is never called inside a transaction', async () => {
    const { account } = await tenant();
    const result = await handle.db.transaction().execute(async (trx) => {
      const inside = createSandboxCarrier({ db: trx, clock, startingBalanceInCents: STARTING_BALANCE });
      return withDeadline(1000, () => inside.balance(account));
    });
    expect(result.kind).toBe('UNAVAILABLE');
  });

  it('keeps tenants apart', async () => {
    const first = await tenant();
    const second = await tenant();
    const label = expectOk(
      await carrier.purchase(first.account, { ...request(), clientReference: 'lbp_iso' }),
    );
    expect(expectOk(await carrier.findPurchase(second.account, 'lbp_iso'))).toEqual({ status: 'NOT_FOUND' });
    expect(await carrier.readLabel(second.account, label)).toMatchObject({ kind: 'REJECTED' });
    expect(expectOk(await carrier.balance(second.account)).balanceInCents).toBe(STARTING_BALANCE);
  });
});
