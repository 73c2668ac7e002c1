import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { createLegacyOrder, getOrder } from '@commerce/orders';
import { createOrderTenant, type OrderTenant, TEST_EMAIL_CONFIG } from '@commerce/orders/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveBoxPreset } from '../box-presets/archive-box-preset.ts';
import { createBoxPreset } from '../box-presets/create-box-preset.ts';
import { updateBoxPreset } from '../box-presets/update-box-preset.ts';
import { getCustomerOrder } from '../customer-orders/customer-order-reads.ts';
import { attachExternalPostage } from './attach-external-postage.ts';
import { createDirectFulfillment } from './create-direct-fulfillment.ts';
import { getFulfillment } from './fulfillment-read.ts';
import { handOffFulfillment } from './hand-off-fulfillment.ts';
import { planFulfillment } from './plan-fulfillment.ts';
import { repairTracking } from './repair-tracking.ts';
import {
  attachExternalPostageInputSchema,
  createDirectFulfillmentInputSchema,
  type FulfillmentContext,
  handOffFulfillmentInputSchema,
  planFulfillmentInputSchema,
  repairTrackingInputSchema,
} from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await handle.close();
});

let keySequence = 0;
const newKey = () => `edges-key-${process.pid}-${++keySequence}-abcdef`;

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const ctxOf = (shop: OrderTenant): FulfillmentContext => ({ ...shop.ctx(), email: TEST_EMAIL_CONFIG });

/** A shop with a legacy order of `quantity` tees (one PRODUCT line). */
async function orderOf(quantity = 4) {
  const shop = await createOrderTenant(handle.db, clock);
  const order = await createLegacyOrder(
    handle.db,
    shop.scope(),
    shop.body({
      items: [
        { itemId: shop.itemId, variantId: shop.variantId, name: 'Tee', quantity, unitPriceInCents: 1500 },
      ],
    }),
  );
  const read = await getOrder(handle.db, shop.organizationId, order.id);
  return { shop, orderId: order.id, recordId: read.salesRecordId, lineId: read.items[0]!.id };
}

const countersOf = (shop: OrderTenant, lineId: string) =>
  handle.db
    .selectFrom('sales_record_lines')
    .select(['shipped_quantity', 'allocated_quantity'])
    .where('organization_id', '=', shop.organizationId)
    .where('id', '=', lineId)
    .executeTakeFirstOrThrow();

describe('a planned fulfillment with a package', () => {
  const planBody = (recordId: string, lineId: string, pkg: object) =>
    planFulfillmentInputSchema.parse({ recordId, lines: [{ lineId, quantity: 1 }], package: pkg });

  it('stores a preset’s outer dimensions (inner where unset) and revision, or custom dimensions', async () => {
    const { shop, orderId, lineId } = await orderOf();
    const withOuter = await createBoxPreset(handle.db, shop.ctx(), {
      name: 'Small',
      innerLengthMm: 200,
      innerWidthMm: 150,
      innerHeightMm: 100,
      outerLengthMm: 210,
      tareWeightGrams: 120,
      maxLoadGrams: 5000,
    });
    await updateBoxPreset(handle.db, shop.ctx(), withOuter.id, { tareWeightGrams: 150 });
    const planned = await planFulfillment(
      handle.db,
      ctxOf(shop),
      planBody(orderId, lineId, { boxPresetId: withOuter.id, boxPresetRevision: 2, loadedWeightGrams: 900 }),
      newKey(),
    );
    const expected = {
      boxPresetId: withOuter.id,
      boxPresetRevision: 2,
      lengthMm: 210,
      widthMm: 150,
      heightMm: 100,
      loadedWeightGrams: 900,
    };
    expect(planned.body.package).toEqual(expected);
    expect(
      (
        await getFulfillment(handle.db, shop.organizationId, {
          recordId: orderId,
          fulfillmentId: planned.body.id,
        })
      ).package,
    ).toEqual(expected);

    const custom = await planFulfillment(
      handle.db,
      ctxOf(shop),
      planBody(orderId, lineId, { lengthMm: 300, widthMm: 200, heightMm: 100, loadedWeightGrams: 1 }),
      newKey(),
    );
    expect(custom.body.package).toEqual({
      boxPresetId: null,
      boxPresetRevision: null,
      lengthMm: 300,
      widthMm: 200,
      heightMm: 100,
      loadedWeightGrams: 1,
    });
    const plain = await planFulfillment(
      handle.db,
      ctxOf(shop),
      planFulfillmentInputSchema.parse({ recordId: orderId, lines: [{ lineId, quantity: 1 }] }),
      newKey(),
    );
    expect(plain.body.package).toBeNull();
    expect(await countersOf(shop, lineId)).toEqual({ shipped_quantity: 0, allocated_quantity: 3 });
  });

  it('refuses an archived preset or a stale revision with STALE_STATE, and a bad preset id or weight with 400, changing nothing', async () => {
    const { shop, orderId, lineId } = await orderOf();
    const other = await createOrderTenant(handle.db, clock);
    const preset = await createBoxPreset(handle.db, shop.ctx(), {
      name: 'Medium',
      innerLengthMm: 300,
      innerWidthMm: 200,
      innerHeightMm: 150,
      tareWeightGrams: 200,
      maxLoadGrams: 3000,
    });
    const foreign = await createBoxPreset(handle.db, other.ctx(), {
      name: 'Theirs',
      innerLengthMm: 300,
      innerWidthMm: 200,
      innerHeightMm: 150,
      tareWeightGrams: 0,
    });
    await updateBoxPreset(handle.db, shop.ctx(), preset.id, { name: 'Medium box' });
    const attempt = (pkg: object) =>
      failureOf(planFulfillment(handle.db, ctxOf(shop), planBody(orderId, lineId, pkg), newKey()));

    expect(
      await attempt({ boxPresetId: preset.id, boxPresetRevision: 1, loadedWeightGrams: 500 }),
    ).toMatchObject({
      code: 'STALE_STATE',
      details: { boxPresetId: preset.id, revision: 2 },
    });
    for (const [pkg, path] of [
      [{ boxPresetId: foreign.id, loadedWeightGrams: 500 }, 'package.boxPresetId'],
      [{ boxPresetId: 'box_unknown', loadedWeightGrams: 500 }, 'package.boxPresetId'],
      [{ boxPresetId: preset.id, loadedWeightGrams: 199 }, 'package.loadedWeightGrams'],
      [{ boxPresetId: preset.id, loadedWeightGrams: 3001 }, 'package.loadedWeightGrams'],
    ] as const) {
      const refused = await attempt(pkg);
      expect(refused.code).toBe('VALIDATION_FAILED');
      expect(refused.details).toMatchObject({ issues: [{ path }] });
    }
    await archiveBoxPreset(handle.db, shop.ctx(), preset.id);
    const archived = await attempt({ boxPresetId: preset.id, loadedWeightGrams: 500 });
    expect(archived).toMatchObject({ code: 'STALE_STATE', details: { boxPresetId: preset.id } });
    expect(archived.details?.archivedAt).toEqual(expect.any(String));
    expect(await countersOf(shop, lineId)).toEqual({ shipped_quantity: 0, allocated_quantity: 0 });
    const rows = await handle.db
      .selectFrom('fulfillments')
      .select('id')
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('validates the package shape with issue paths', () => {
    const issues = (pkg: unknown) =>
      planFulfillmentInputSchema
        .safeParse({ recordId: 'ord_1', lines: [{ lineId: 'sli_1', quantity: 1 }], package: pkg })
        .error?.issues.map((issue) => issue.path.join('.'))
        .sort();
    expect(issues({ boxPresetId: 'box_1' })).toEqual(['package.loadedWeightGrams']);
    expect(issues({ lengthMm: 10, widthMm: 10, loadedWeightGrams: 5 })).toEqual(['package.heightMm']);
    expect(issues({ boxPresetId: 'box_1', lengthMm: 10, loadedWeightGrams: 5 })).toEqual([
      'package.lengthMm',
    ]);
    expect(issues({ lengthMm: 3001, widthMm: 0, heightMm: 1.5, loadedWeightGrams: 150001 })).toEqual([
      'package.heightMm',
      'package.lengthMm',
      'package.loadedWeightGrams',
      'package.widthMm',
    ]);
    expect(
      issues({ lengthMm: 1, widthMm: 1, heightMm: 1, loadedWeightGrams: 1, boxPresetRevision: 1 }),
    ).toEqual(['package.boxPresetRevision']);
    expect(issues({ boxPresetId: 'box_1', loadedWeightGrams: 1, colour: 'red' })).toEqual(['package']);
  });
});

describe('historical order-level tracking repair', () => {
  const ship = async (shop: OrderTenant, recordId: string, lineId: string, tracking?: object) =>
    (
      await createDirectFulfillment(
        handle.db,
        ctxOf(shop),
        createDirectFulfillmentInputSchema.parse({
          recordId,
          lines: [{ lineId, quantity: 1 }],
          notifyCustomer: true,
          ...(tracking ? { tracking } : {}),
        }),
        newKey(),
      )
    ).body;
  const repair = (shop: OrderTenant, body: object) =>
    repairTracking(handle.db, ctxOf(shop), repairTrackingInputSchema.parse(body));

  /** Everything a repair must never touch, and the fulfillments themselves. */
  const worldOf = async (shop: OrderTenant) => {
    const of = (
      table:
        | 'fulfillments'
        | 'sales_record_lines'
        | 'inventory_movements'
        | 'outbox'
        | 'fulfillment_postages',
    ): Promise<Record<string, unknown>[]> =>
      handle.db
        .selectFrom(table as 'fulfillments')
        .selectAll()
        .where('organization_id', '=', shop.organizationId)
        .orderBy('id')
        .execute();
    const [fulfillments, lines, movements, outbox, postages, variant, audits] = await Promise.all([
      of('fulfillments'),
      of('sales_record_lines'),
      of('inventory_movements'),
      of('outbox'),
      of('fulfillment_postages'),
      handle.db
        .selectFrom('variants')
        .select('inventory_quantity')
        .where('organization_id', '=', shop.organizationId)
        .execute(),
      handle.db
        .selectFrom('audit_logs')
        .select('id')
        .where('organization_id', '=', shop.organizationId)
        .where('action', '=', 'fulfillment.tracking_repaired')
        .execute(),
    ]);
    return { fulfillments, lines, movements, outbox, postages, variant, audits };
  };

  it('fails closed with zero or two compatible rows: no state, counter, stock, outbox or audit change', async () => {
    const { shop, orderId, recordId, lineId } = await orderOf(4);
    await handle.db
      .updateTable('variants')
      .set({ inventory_quantity: 10 })
      .where('organization_id', '=', shop.organizationId)
      .execute();
    // Zero: nothing shipped yet, only a plan.
    await planFulfillment(
      handle.db,
      ctxOf(shop),
      planFulfillmentInputSchema.parse({ recordId, lines: [{ lineId, quantity: 1 }] }),
      newKey(),
    );
    let before = await worldOf(shop);
    const none = await failureOf(repair(shop, { id: orderId, carrier: 'UPS', trackingNumber: '1Z1' }));
    expect(none).toMatchObject({ code: 'TRACKING_HISTORY_AMBIGUOUS', details: { compatibleCount: 0 } });
    expect(await worldOf(shop)).toEqual(before);

    // Two: two direct shipments; naming one of them does not make the choice.
    const first = await ship(shop, orderId, lineId, { carrier: 'UPS', trackingNumber: '1Z1' });
    await ship(shop, orderId, lineId);
    before = await worldOf(shop);
    expect(before.outbox.filter((row) => String(row.dedupe_key).startsWith('ORDER_SHIPPED:'))).toHaveLength(
      2,
    );
    for (const body of [
      { id: orderId, trackingNumber: '1Z2' },
      { id: recordId, carrier: null, trackingNumber: null, expectedFulfillmentId: first.id },
      { id: orderId, trackingUrl: 'https://ups.example/1Z2' },
    ]) {
      const several = await failureOf(repair(shop, body));
      expect(several).toMatchObject({ code: 'TRACKING_HISTORY_AMBIGUOUS', details: { compatibleCount: 2 } });
    }
    expect(await worldOf(shop)).toEqual(before);
  });

  it('repairs the one direct shipment: only its tracking, version and audit change', async () => {
    const { shop, orderId, recordId, lineId } = await orderOf(3);
    const shipped = await ship(shop, orderId, lineId, { carrier: 'UPS', trackingNumber: '1Z1' });
    // A native-label shipment is never a candidate: this one is the only compatible row.
    await handle.db
      .insertInto('fulfillments')
      .values({
        organization_id: shop.organizationId,
        id: 'ful_native_label_row',
        sales_record_id: recordId,
        order_id: orderId,
        status: 'SHIPPED',
        origin: 'NATIVE_LABEL',
        tracking_carrier: null,
        tracking_number: null,
        tracking_url: null,
        note: null,
        notification_decision: 'SUPPRESS',
        notification_decided_at: clock.now(),
        notification_decided_by: null,
        inventory_consumed_at: clock.now(),
        shipped_at: clock.now(),
        delivered_at: null,
        cancelled_at: null,
        cancel_reason: null,
        created_by: null,
        created_at: clock.now(),
        updated_at: clock.now(),
      })
      .execute();
    const before = await worldOf(shop);
    const stale = await failureOf(
      repair(shop, { id: orderId, trackingNumber: '1Z9', expectedFulfillmentId: 'ful_native_label_row' }),
    );
    expect(stale).toMatchObject({ code: 'STALE_STATE', details: { fulfillmentId: shipped.id } });
    expect(await failureOf(repair(shop, { id: orderId, carrier: null }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ path: 'carrier' }] },
    });
    expect(await worldOf(shop)).toEqual(before);

    const { fulfillment } = await repair(shop, {
      id: recordId,
      trackingNumber: '1Z 999',
      trackingUrl: 'https://ups.example/1Z999',
      expectedFulfillmentId: shipped.id,
    });
    expect(fulfillment).toMatchObject({
      id: shipped.id,
      status: 'SHIPPED',
      tracking: { carrier: 'UPS', trackingNumber: '1Z 999', trackingUrl: 'https://ups.example/1Z999' },
      version: shipped.version + 1,
    });
    const after = await worldOf(shop);
    expect({ ...after, fulfillments: undefined, audits: undefined }).toEqual({
      ...before,
      fulfillments: undefined,
      audits: undefined,
    });
    expect(after.fulfillments.find((row) => row.id === 'ful_native_label_row')).toEqual(
      before.fulfillments.find((row) => row.id === 'ful_native_label_row'),
    );
    const audits = await handle.db
      .selectFrom('audit_logs')
      .select('metadata')
      .where('organization_id', '=', shop.organizationId)
      .where('action', '=', 'fulfillment.tracking_repaired')
      .execute();
    expect(audits).toEqual([
      { metadata: { fulfillmentId: shipped.id, recordId, fields: ['trackingNumber', 'trackingUrl'] } },
    ]);
    // The same values again write nothing.
    const again = await repair(shop, { id: orderId, trackingNumber: '1Z 999' });
    expect(again.fulfillment.version).toBe(shipped.version + 1);
    expect((await worldOf(shop)).audits).toHaveLength(1);
  });

  it('repairs a delivered shipment of external postage, keeps the postage, and can clear the tracking', async () => {
    const { shop, orderId, recordId, lineId } = await orderOf(2);
    const planned = await planFulfillment(
      handle.db,
      ctxOf(shop),
      planFulfillmentInputSchema.parse({ recordId, lines: [{ lineId, quantity: 2 }] }),
      newKey(),
    );
    await attachExternalPostage(
      handle.db,
      ctxOf(shop),
      attachExternalPostageInputSchema.parse({
        recordId,
        fulfillmentId: planned.body.id,
        carrier: 'DHL',
        trackingNumber: 'JD01',
      }),
    );
    await handOffFulfillment(
      handle.db,
      ctxOf(shop),
      handOffFulfillmentInputSchema.parse({
        recordId,
        fulfillmentId: planned.body.id,
        notifyCustomer: false,
      }),
    );
    const repaired = await repair(shop, { id: orderId, trackingNumber: 'JD02' });
    expect(repaired.fulfillment).toMatchObject({
      tracking: { carrier: 'DHL', trackingNumber: 'JD02', trackingUrl: null },
      postage: { source: 'EXTERNAL', trackingNumber: 'JD01', status: 'ACTIVE' },
    });
    const cleared = await repair(shop, { id: orderId, carrier: null, trackingNumber: null });
    expect(cleared.fulfillment.tracking).toBeNull();
    const customer = await getCustomerOrder(handle.db, shop.organizationId, orderId);
    expect(customer.shipments).toMatchObject([{ carrier: null, trackingNumber: null, trackingUrl: null }]);
  });

  it('serialises concurrent repairs and a racing shipment: one version per change, never a picked row', async () => {
    const { shop, orderId, recordId, lineId } = await orderOf(3);
    const shipped = await ship(shop, orderId, lineId, { carrier: 'UPS', trackingNumber: '1Z0' });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        repair(shop, { id: orderId, trackingNumber: `1Z${index + 1}` }),
      ),
    );
    expect(outcomes.every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    const read = await getFulfillment(handle.db, shop.organizationId, {
      recordId,
      fulfillmentId: shipped.id,
    });
    const audits = await handle.db
      .selectFrom('audit_logs')
      .select('id')
      .where('organization_id', '=', shop.organizationId)
      .where('action', '=', 'fulfillment.tracking_repaired')
      .execute();
    expect(read.version).toBe(1 + audits.length);
    expect(audits).toHaveLength(10);

    // A repair racing a second shipment either lands on the first one (before it) or fails closed (after).
    const [repaired, second] = await Promise.allSettled([
      repair(shop, { id: orderId, trackingNumber: '1Z99' }),
      ship(shop, orderId, lineId),
    ]);
    expect(second.status).toBe('fulfilled');
    if (repaired.status === 'fulfilled') expect(repaired.value.fulfillment.id).toBe(shipped.id);
    else
      expect(repaired.reason).toMatchObject({
        code: 'TRACKING_HISTORY_AMBIGUOUS',
        details: { compatibleCount: 2 },
      });
  });

  it('validates the body with issue paths', () => {
    const issues = (body: object) =>
      repairTrackingInputSchema
        .safeParse({ id: 'ord_1', ...body })
        .error?.issues.map((issue) => issue.path.join('.'));
    expect(issues({})).toEqual(['']);
    expect(issues({ expectedFulfillmentId: 'ful_1' })).toEqual(['']);
    expect(issues({ trackingUrl: 'http://insecure.example' })).toEqual(['trackingUrl']);
    expect(issues({ trackingNumber: 'no/slashes' })).toEqual(['trackingNumber']);
    expect(issues({ carrier: '' })).toEqual(['carrier']);
    expect(issues({ carrier: 'UPS', status: 'SHIPPED' })).toEqual(['']);
  });
});
