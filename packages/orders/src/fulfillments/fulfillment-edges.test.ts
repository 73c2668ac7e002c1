import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveBoxPreset } from '../box-presets/archive-box-preset.ts';
import { createBoxPreset } from '../box-presets/create-box-preset.ts';
import { updateBoxPreset } from '../box-presets/update-box-preset.ts';
import { createLegacyOrder } from '../orders/create-legacy-order.ts';
import { getOrder } from '../orders/get-order.ts';
import { createOrderTenant, type OrderTenant, TEST_EMAIL_CONFIG } from '../orders/test-support.ts';
import { getFulfillment } from './fulfillment-read.ts';
import { planFulfillment } from './plan-fulfillment.ts';
import { type FulfillmentContext, planFulfillmentInputSchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
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
