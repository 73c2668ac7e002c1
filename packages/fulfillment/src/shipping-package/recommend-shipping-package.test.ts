import { AppError, ManualClock } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { createLegacyOrder } from '@commerce/orders';
import { createOrderTenant, type OrderTenant } from '@commerce/orders/testing';
import type { Kysely, KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveBoxPreset } from '../box-presets/archive-box-preset.ts';
import { createBoxPreset } from '../box-presets/create-box-preset.ts';
import { createBoxPresetInputSchema } from '../box-presets/schemas.ts';
import { recommendShippingPackage } from './recommend-shipping-package.ts';
import { recommendShippingPackageInputSchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-26T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

/** A handle on `db` that records the kind of each statement run through it. */
function recordingQueries(db: Kysely<Database>): { db: Kysely<Database>; kinds: string[] } {
  const kinds: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      kinds.push(node.kind);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: db.withPlugin(plugin), kinds };
}

const setDimensions = (
  table: 'items' | 'variants',
  shop: OrderTenant,
  id: string,
  [weight, length, width, height]: (number | null)[],
) =>
  handle.db
    .updateTable(table)
    .set({
      shipping_weight_grams: weight,
      shipping_length_mm: length,
      shipping_width_mm: width,
      shipping_height_mm: height,
    })
    .where('organization_id', '=', shop.organizationId)
    .where('id', '=', id)
    .execute();

async function preset(shop: OrderTenant, name: string, inner: [number, number, number], tare = 100) {
  return createBoxPreset(
    handle.db,
    shop.ctx(),
    createBoxPresetInputSchema.parse({
      name,
      innerLengthMm: inner[0],
      innerWidthMm: inner[1],
      innerHeightMm: inner[2],
      tareWeightGrams: tare,
    }),
  );
}

/** An order of 3 units of the item's variant (sized) and 2 of the plain item. */
async function orderOf(shop: OrderTenant) {
  const order = await createLegacyOrder(
    handle.db,
    shop.scope(),
    shop.body({
      items: [
        {
          itemId: shop.itemId,
          variantId: shop.variantId,
          name: 'Tee blue',
          quantity: 3,
          unitPriceInCents: 1500,
        },
        { itemId: shop.itemId, variantId: null, name: 'Tee', quantity: 2, unitPriceInCents: 1500 },
      ],
    }),
  );
  const { sales_record_id: salesRecordId } = await handle.db
    .selectFrom('orders')
    .select('sales_record_id')
    .where('organization_id', '=', shop.organizationId)
    .where('id', '=', order.id)
    .executeTakeFirstOrThrow();
  return { ...order, salesRecordId };
}

const input = (body: Record<string, unknown>) => recommendShippingPackageInputSchema.parse(body);

describe('recommendShippingPackage', () => {
  it('recommends for the order by either id, in two queries whatever the number of lines, writing nothing', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    await setDimensions('items', shop, shop.itemId, [200, 100, 100, 50]);
    await setDimensions('variants', shop, shop.variantId, [300, 100, 100, 50]);
    const order = await orderOf(shop);
    await preset(shop, 'Too small', [100, 100, 200]);
    const fitting = await preset(shop, 'Tower', [100, 100, 250]);
    const archived = await preset(shop, 'Archived exact', [100, 100, 250], 0);
    await archiveBoxPreset(handle.db, shop.ctx(), archived.id);

    const recording = recordingQueries(handle.db);
    const byOrder = await recommendShippingPackage(
      recording.db,
      shop.organizationId,
      input({ id: order.id }),
    );
    expect(recording.kinds).toEqual(['SelectQueryNode', 'SelectQueryNode']);
    expect(byOrder).toEqual({
      recommendation: {
        boxPresetId: fitting.id,
        boxPresetRevision: 1,
        name: 'Tower',
        inner: { lengthMm: 100, widthMm: 100, heightMm: 250 },
        outer: { lengthMm: 100, widthMm: 100, heightMm: 250 },
        loadedWeightGrams: 3 * 300 + 2 * 200 + 100,
        proof: 'GRID',
        stackAxis: null,
      },
      reason: null,
      missing: [],
      unitCount: 5,
      catalogWeightGrams: 1300,
      evaluatedPresetCount: 2,
    });
    const byRecord = await recommendShippingPackage(
      handle.db,
      shop.organizationId,
      input({ id: order.salesRecordId }),
    );
    expect(byRecord).toEqual(byOrder);
  });

  it('takes selected lines and quantities, and refuses a line that is not a PRODUCT line or too many units', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    await setDimensions('items', shop, shop.itemId, [200, 100, 100, 50]);
    const order = await orderOf(shop);
    const [sized, plain] = order.items;
    await preset(shop, 'One', [100, 100, 50]);
    const answer = await recommendShippingPackage(
      handle.db,
      shop.organizationId,
      input({ id: order.id, lines: [{ lineId: plain!.id, quantity: 1 }] }),
    );
    expect(answer).toMatchObject({ reason: null, unitCount: 1, recommendation: { proof: 'SINGLE_UNIT' } });

    // The variant has no dimensions of its own: its item's are used.
    const variantLine = await recommendShippingPackage(
      handle.db,
      shop.organizationId,
      input({ id: order.id, lines: [{ lineId: sized!.id, quantity: 1 }] }),
    );
    expect(variantLine.reason).toBeNull();

    const refused = await recommendShippingPackage(
      handle.db,
      shop.organizationId,
      input({
        id: order.id,
        lines: [
          { lineId: plain!.id, quantity: 3 },
          { lineId: 'sli_elsewhere', quantity: 1 },
        ],
      }),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).details).toEqual({
      issues: [
        { path: 'lines.0.quantity', message: 'is more than the 2 available' },
        { path: 'lines.1.lineId', message: 'is not a PRODUCT line of the order' },
      ],
    });
  });

  it('counts only units not yet shipped or allocated: a line with none left is skipped or refused', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    await setDimensions('items', shop, shop.itemId, [200, 100, 100, 50]);
    const order = await orderOf(shop);
    const [sized, plain] = order.items;
    await preset(shop, 'Tower', [100, 100, 250]);
    // Of the 3 sized units, 2 shipped and 1 planned; of the 2 plain ones, 1 shipped.
    const counters = async (lineId: string, shipped: number, allocated: number) =>
      handle.db
        .updateTable('sales_record_lines')
        .set({ shipped_quantity: shipped, allocated_quantity: allocated })
        .where('organization_id', '=', shop.organizationId)
        .where('id', '=', lineId)
        .execute();
    await counters(sized!.id, 2, 1);
    await counters(plain!.id, 1, 0);
    const rest = await recommendShippingPackage(handle.db, shop.organizationId, input({ id: order.id }));
    expect(rest).toMatchObject({ reason: null, unitCount: 1, catalogWeightGrams: 200 });
    const refused = await recommendShippingPackage(
      handle.db,
      shop.organizationId,
      input({ id: order.id, lines: [{ lineId: sized!.id, quantity: 1 }] }),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as AppError).details).toEqual({
      issues: [{ path: 'lines.0.quantity', message: 'is more than the 0 available' }],
    });
    await counters(plain!.id, 2, 0);
    expect(
      await recommendShippingPackage(handle.db, shop.organizationId, input({ id: order.id })),
    ).toMatchObject({
      recommendation: null,
      reason: 'NO_PRODUCT_UNITS',
      unitCount: 0,
    });
  });

  it('reports missing dimensions, and answers unknown, foreign and malformed ids with the neutral 404', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const order = await orderOf(shop);
    await preset(shop, 'Any', [500, 500, 500]);
    const missing = await recommendShippingPackage(handle.db, shop.organizationId, input({ id: order.id }));
    expect(missing).toMatchObject({ reason: 'MISSING_DIMENSIONS', recommendation: null, unitCount: 5 });
    expect(missing.missing.map((line) => line.lineId)).toEqual(order.items.map((line) => line.id));

    const other = await createOrderTenant(handle.db, clock);
    for (const id of [order.id, order.salesRecordId, 'ord_unknown', 'sal_unknown', 'itm_x', shop.itemId]) {
      const error = await recommendShippingPackage(handle.db, other.organizationId, input({ id })).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect((error as AppError).code, id).toBe('RESOURCE_NOT_FOUND');
    }
  });
});
