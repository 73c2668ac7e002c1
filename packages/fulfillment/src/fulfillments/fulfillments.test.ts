import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import {
  createLegacyOrder,
  getOrder,
  lockRecord,
  projectOrder,
  publicOrderListQuerySchema,
  recordSale,
  updateOrderStatus,
} from '@commerce/orders';
import {
  createOrderTenant,
  ORDER_STATUS_EFFECTS,
  type OrderTenant,
  TEST_EMAIL_CONFIG,
} from '@commerce/orders/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCustomerOrder, listCustomerAccountOrders } from '../customer-orders/customer-order-reads.ts';
import { attachExternalPostage } from './attach-external-postage.ts';
import { cancelFulfillment } from './cancel-fulfillment.ts';
import { createDirectFulfillment } from './create-direct-fulfillment.ts';
import { deliverFulfillment } from './deliver-fulfillment.ts';
import { getFulfillment, listFulfillments } from './fulfillment-read.ts';
import { changeCounters } from './fulfillment-target.ts';
import { handOffFulfillment } from './hand-off-fulfillment.ts';
import { planFulfillment } from './plan-fulfillment.ts';
import {
  createDirectFulfillmentInputSchema,
  type FulfillmentContext,
  fulfillmentListQuerySchema,
  handOffFulfillmentInputSchema,
  planFulfillmentInputSchema,
} from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 24 });
});
afterAll(async () => {
  await handle.close();
});

let keySequence = 0;
const newKey = () => `fulfil-key-${process.pid}-${++keySequence}-abcdef`;

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

function ctxOf(shop: OrderTenant): FulfillmentContext {
  return { ...shop.ctx(), email: TEST_EMAIL_CONFIG };
}

/** A shop whose variant tracks `stock` units, and a legacy order of `quantity` of it plus a plain line. */
async function orderWithStock(stock: number, quantity: number) {
  const shop = await createOrderTenant(handle.db, clock);
  await handle.db
    .updateTable('variants')
    .set({ inventory_quantity: stock, sku: 'TEE-BLUE' })
    .where('organization_id', '=', shop.organizationId)
    .where('id', '=', shop.variantId)
    .execute();
  const order = await createLegacyOrder(
    handle.db,
    shop.scope(),
    shop.body({
      items: [
        { itemId: shop.itemId, variantId: shop.variantId, name: 'Tee', quantity, unitPriceInCents: 1500 },
        { itemId: shop.itemId, variantId: null, name: 'Sticker', quantity: 2, unitPriceInCents: 100 },
      ],
    }),
  );
  const lines = await handle.db
    .selectFrom('sales_record_lines')
    .selectAll()
    .where('organization_id', '=', shop.organizationId)
    .where('sales_record_id', '=', (await getOrder(handle.db, shop.organizationId, order.id)).salesRecordId)
    .orderBy('position')
    .execute();
  const read = await getOrder(handle.db, shop.organizationId, order.id);
  return {
    shop,
    orderId: order.id,
    recordId: read.salesRecordId,
    teeLine: lines[0]!.id,
    stickerLine: lines[1]!.id,
  };
}

const direct = (recordId: string, lines: { lineId: string; quantity: number }[], changes: object = {}) =>
  createDirectFulfillmentInputSchema.parse({ recordId, lines, notifyCustomer: true, ...changes });

const stockOf = async (shop: OrderTenant) =>
  (
    await handle.db
      .selectFrom('variants')
      .select('inventory_quantity')
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', shop.variantId)
      .executeTakeFirstOrThrow()
  ).inventory_quantity;

const movementsOf = (shop: OrderTenant) =>
  handle.db
    .selectFrom('inventory_movements')
    .selectAll()
    .where('organization_id', '=', shop.organizationId)
    .execute();

const countersOf = async (shop: OrderTenant, lineId: string) =>
  handle.db
    .selectFrom('sales_record_lines')
    .select(['shipped_quantity', 'allocated_quantity'])
    .where('organization_id', '=', shop.organizationId)
    .where('id', '=', lineId)
    .executeTakeFirstOrThrow();

const statusesOf = async (shop: OrderTenant, orderId: string, recordId: string) => {
  const order = await handle.db
    .selectFrom('orders')
    .select('fulfillment_status')
    .where('organization_id', '=', shop.organizationId)
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const record = await handle.db
    .selectFrom('sales_records')
    .select('fulfillment_status')
    .where('organization_id', '=', shop.organizationId)
    .where('id', '=', recordId)
    .executeTakeFirstOrThrow();
  return [order.fulfillment_status, record.fulfillment_status];
};

const shippedEmails = (shop: OrderTenant) =>
  handle.db
    .selectFrom('outbox')
    .select(['dedupe_key', 'metadata'])
    .where('organization_id', '=', shop.organizationId)
    .where('dedupe_key', 'like', 'ORDER_SHIPPED:%')
    .execute();

describe('direct fulfillment', () => {
  it('ships the units, consumes stock once, derives the status, mails and audits', async () => {
    const { shop, orderId, recordId, teeLine } = await orderWithStock(10, 3);
    const { body, replayed } = await createDirectFulfillment(
      handle.db,
      ctxOf(shop),
      direct(orderId, [{ lineId: teeLine, quantity: 2 }], {
        tracking: { carrier: 'UPS', trackingNumber: '1Z 999-AA1', trackingUrl: 'https://ups.example/t/1' },
      }),
      newKey(),
    );
    expect(replayed).toBe(false);
    expect(body).toMatchObject({
      recordId,
      orderId,
      status: 'SHIPPED',
      origin: 'DIRECT',
      lines: [{ lineId: teeLine, variantId: shop.variantId, sku: 'TEE-BLUE', name: 'Tee', quantity: 2 }],
      tracking: { carrier: 'UPS', trackingNumber: '1Z 999-AA1', trackingUrl: 'https://ups.example/t/1' },
      package: null,
      postage: null,
      retiredPostage: [],
      cancellation: null,
      notification: { decision: 'SEND', decidedBy: 'usr_orders_test', emailQueued: true },
      recordFulfillmentStatus: 'PARTIALLY_FULFILLED',
      version: 1,
    });
    expect(body.id).toMatch(/^ful_/);
    expect(await statusesOf(shop, orderId, recordId)).toEqual(['PARTIALLY_FULFILLED', 'PARTIALLY_FULFILLED']);
    expect(await stockOf(shop)).toBe(8);
    const movements = await movementsOf(shop);
    expect(movements).toMatchObject([
      { kind: 'CONSUME', fulfillment_id: body.id, quantity: 2, shortfall_quantity: 0 },
    ]);
    expect(movements[0]!.id).toMatch(/^inm_/);
    expect(await shippedEmails(shop)).toMatchObject([{ dedupe_key: `ORDER_SHIPPED:${body.id}` }]);
    const audits = await handle.db
      .selectFrom('audit_logs')
      .select(['action', 'metadata'])
      .where('organization_id', '=', shop.organizationId)
      .where('target_id', '=', body.id)
      .execute();
    expect(audits).toEqual([
      {
        action: 'fulfillment.created',
        metadata: {
          fulfillmentId: body.id,
          recordId,
          lines: [{ lineId: teeLine, quantity: 2 }],
          notifyCustomer: true,
          hasTracking: true,
        },
      },
    ]);

    const order = await getOrder(handle.db, shop.organizationId, orderId);
    expect(order.fulfillmentStatus).toBe('PARTIALLY_FULFILLED');
    expect(order.items).toMatchObject([
      { id: teeLine, shippedQuantity: 2, allocatedQuantity: 0, unfulfilledQuantity: 1 },
      { shippedQuantity: 0, allocatedQuantity: 0, unfulfilledQuantity: 2 },
    ]);

    // The rest, addressed by the sales record id: FULFILLED once every PRODUCT line is shipped.
    const rest = await createDirectFulfillment(
      handle.db,
      ctxOf(shop),
      direct(recordId, [{ lineId: teeLine, quantity: 1 }], { notifyCustomer: false }),
      newKey(),
    );
    expect(rest.body).toMatchObject({
      recordFulfillmentStatus: 'PARTIALLY_FULFILLED',
      notification: { decision: 'SUPPRESS', emailQueued: false },
    });
    expect(await shippedEmails(shop)).toHaveLength(1);
    expect(await stockOf(shop)).toBe(7);
  });

  it('reports FULFILLED when every PRODUCT line is shipped; non-PRODUCT lines are never counted', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const at = clock.now();
    const sale = await recordSale(handle.db, {
      organizationId: shop.organizationId,
      source: 'LEGACY_ORDER',
      currency: 'USD',
      customer: { name: 'Ada', email: 'ada@example.com', phone: null },
      lines: [
        {
          type: 'PRODUCT',
          itemId: shop.itemId,
          variantId: null,
          name: 'Tee',
          quantity: 1,
          unitPriceInCents: 100,
        },
        { type: 'FEE', itemId: null, variantId: null, name: 'Handling', quantity: 1, unitPriceInCents: 50 },
      ],
      shippingInCents: 0,
      taxInCents: 0,
      taxIncluded: false,
      discountInCents: 0,
      paymentStatus: 'NOT_REQUIRED',
      at,
    });
    const order = await projectOrder(handle.db, sale, { notes: null, at });
    const [product, fee] = sale.lines;
    const refused = await failureOf(
      createDirectFulfillment(
        handle.db,
        ctxOf(shop),
        direct(order.id, [{ lineId: fee!.id, quantity: 1 }]),
        newKey(),
      ),
    );
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.details).toEqual({ issues: [{ path: 'lines.0.lineId', message: expect.any(String) }] });
    const shipped = await createDirectFulfillment(
      handle.db,
      ctxOf(shop),
      direct(order.id, [{ lineId: product!.id, quantity: 1 }]),
      newKey(),
    );
    expect(shipped.body.recordFulfillmentStatus).toBe('FULFILLED');
    const read = await getOrder(handle.db, shop.organizationId, order.id);
    expect(read.fulfillmentStatus).toBe('FULFILLED');
    expect(read.items[1]).toMatchObject({
      type: 'FEE',
      shippedQuantity: null,
      allocatedQuantity: null,
      unfulfilledQuantity: null,
    });
  });

  it('refuses lines of another record, unknown and foreign ids, and more than is left', async () => {
    const first = await orderWithStock(5, 2);
    const second = await orderWithStock(5, 2);
    const ctx = ctxOf(first.shop);
    const otherRecordLine = await failureOf(
      createDirectFulfillment(
        handle.db,
        ctx,
        direct(first.orderId, [
          { lineId: first.teeLine, quantity: 1 },
          { lineId: second.teeLine, quantity: 1 },
        ]),
        newKey(),
      ),
    );
    expect(otherRecordLine.details).toEqual({
      issues: [{ path: 'lines.1.lineId', message: expect.any(String) }],
    });
    for (const id of ['ord_unknown', 'sal_unknown', 'ful_x', second.orderId, second.recordId]) {
      const error = await failureOf(
        createDirectFulfillment(
          handle.db,
          ctx,
          direct(id, [{ lineId: first.teeLine, quantity: 1 }]),
          newKey(),
        ),
      );
      expect(error.code, id).toBe('RESOURCE_NOT_FOUND');
      expect(error.message).toBe('Order not found');
    }
    const over = await failureOf(
      createDirectFulfillment(
        handle.db,
        ctx,
        direct(first.orderId, [{ lineId: first.teeLine, quantity: 3 }]),
        newKey(),
      ),
    );
    expect(over.code).toBe('OVER_FULFILLMENT');
    expect(over.details).toEqual({ lines: [{ lineId: first.teeLine, requested: 3, available: 2 }] });
    const future = await failureOf(
      createDirectFulfillment(
        handle.db,
        ctx,
        direct(first.orderId, [{ lineId: first.teeLine, quantity: 1 }], {
          shippedAt: '2030-01-01T00:00:00Z',
        }),
        newKey(),
      ),
    );
    expect(future.details).toEqual({ issues: [{ path: 'shippedAt', message: 'must not be in the future' }] });
    expect(await countersOf(first.shop, first.teeLine)).toEqual({
      shipped_quantity: 0,
      allocated_quantity: 0,
    });
    expect(await stockOf(first.shop)).toBe(5);
  });

  it('refuses a cancelled order with ORDER_NOT_FULFILLABLE', async () => {
    const { shop, orderId, teeLine } = await orderWithStock(5, 2);
    await updateOrderStatus(
      handle.db,
      shop.ctx(),
      { id: orderId, status: 'CANCELLED' },
      ORDER_STATUS_EFFECTS,
    );
    const error = await failureOf(
      createDirectFulfillment(
        handle.db,
        ctxOf(shop),
        direct(orderId, [{ lineId: teeLine, quantity: 1 }]),
        newKey(),
      ),
    );
    expect(error.code).toBe('ORDER_NOT_FULFILLABLE');
    expect(error.details).toEqual({ reason: 'CANCELLED' });
  });

  it('validates the body with issue paths', () => {
    const base = { recordId: 'ord_x', lines: [{ lineId: 'sli_a', quantity: 1 }], notifyCustomer: true };
    const pathsOf = (body: unknown) => {
      const parsed = createDirectFulfillmentInputSchema.safeParse(body);
      expect(parsed.success).toBe(false);
      return parsed.error!.issues.map((issue) => issue.path.join('.'));
    };
    expect(pathsOf({ ...base, notifyCustomer: undefined })).toEqual(['notifyCustomer']);
    for (const quantity of [0, -1, 1.5, 100_001])
      expect(pathsOf({ ...base, lines: [{ lineId: 'sli_a', quantity }] })).toEqual(['lines.0.quantity']);
    expect(
      pathsOf({
        ...base,
        lines: [
          { lineId: 'sli_a', quantity: 1 },
          { lineId: 'sli_a', quantity: 1 },
        ],
      }),
    ).toEqual(['lines.1.lineId']);
    expect(pathsOf({ ...base, lines: [] })).toEqual(['lines']);
    expect(pathsOf({ ...base, extra: 1 })).toEqual(['']);
    expect(pathsOf({ ...base, tracking: { carrier: 'UPS', trackingNumber: 'bad/number' } })).toEqual([
      'tracking.trackingNumber',
    ]);
    expect(
      pathsOf({ ...base, tracking: { carrier: 'UPS', trackingNumber: '1', trackingUrl: 'http://x.test' } }),
    ).toEqual(['tracking.trackingUrl']);
    expect(pathsOf({ ...base, note: '   ' })).toEqual(['note']);
  });
});

describe('idempotency of direct fulfillment', () => {
  it('answers 20 concurrent identical requests with one fulfillment and 19 replays; another body is refused', async () => {
    const { shop, orderId, recordId, teeLine } = await orderWithStock(10, 5);
    const key = newKey();
    const input = direct(orderId, [{ lineId: teeLine, quantity: 2 }]);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => createDirectFulfillment(handle.db, ctxOf(shop), input, key)),
    );
    expect(outcomes.filter((outcome) => outcome.replayed)).toHaveLength(19);
    for (const outcome of outcomes) expect(outcome.body).toEqual(outcomes[0]!.body);
    expect(await countersOf(shop, teeLine)).toEqual({ shipped_quantity: 2, allocated_quantity: 0 });
    expect(await stockOf(shop)).toBe(8);
    expect(await movementsOf(shop)).toHaveLength(1);
    expect(await shippedEmails(shop)).toHaveLength(1);

    // Either id of the pair is the same request.
    const bySalesRecord = await createDirectFulfillment(handle.db, ctxOf(shop), { ...input, recordId }, key);
    expect(bySalesRecord.replayed).toBe(true);
    const reused = await failureOf(
      createDirectFulfillment(
        handle.db,
        ctxOf(shop),
        direct(orderId, [{ lineId: teeLine, quantity: 1 }]),
        key,
      ),
    );
    expect(reused.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(reused.details).toEqual({ fields: ['lines'] });
  });
});

describe('over-fulfillment under concurrent requests', () => {
  it('lets one of 20 distinct-key requests for the last 3 units through', async () => {
    const { shop, orderId, teeLine } = await orderWithStock(10, 5);
    await createDirectFulfillment(
      handle.db,
      ctxOf(shop),
      direct(orderId, [{ lineId: teeLine, quantity: 2 }]),
      newKey(),
    );
    const stockBefore = await stockOf(shop);
    const movementsBefore = (await movementsOf(shop)).length;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        createDirectFulfillment(
          handle.db,
          ctxOf(shop),
          direct(orderId, [{ lineId: teeLine, quantity: 3 }]),
          newKey(),
        ),
      ),
    );
    const won = results.filter((result) => result.status === 'fulfilled');
    const lost = results.flatMap((result) =>
      result.status === 'rejected' ? [result.reason as AppError] : [],
    );
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const error of lost) expect(error.code).toBe('OVER_FULFILLMENT');
    expect(await stockOf(shop)).toBe(stockBefore! - 3);
    expect(await movementsOf(shop)).toHaveLength(movementsBefore + 1);
    expect(await countersOf(shop, teeLine)).toEqual({ shipped_quantity: 5, allocated_quantity: 0 });
  });

  it('never exceeds a line when direct fulfillments and plans race on it', async () => {
    const { shop, orderId, teeLine } = await orderWithStock(100, 7);
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, index) =>
        index % 2 === 0
          ? createDirectFulfillment(
              handle.db,
              ctxOf(shop),
              direct(orderId, [{ lineId: teeLine, quantity: 2 }]),
              newKey(),
            )
          : planFulfillment(
              handle.db,
              ctxOf(shop),
              planFulfillmentInputSchema.parse({
                recordId: orderId,
                lines: [{ lineId: teeLine, quantity: 2 }],
              }),
              newKey(),
            ),
      ),
    );
    const won = results.filter((result) => result.status === 'fulfilled').length;
    expect(won).toBe(3);
    for (const result of results)
      if (result.status === 'rejected') expect((result.reason as AppError).code).toBe('OVER_FULFILLMENT');
    const counters = await countersOf(shop, teeLine);
    expect(counters.shipped_quantity + counters.allocated_quantity).toBe(6);
    expect(await stockOf(shop)).toBe(100 - counters.shipped_quantity);
  });
});

describe('planned fulfillments', () => {
  const plan = (shop: OrderTenant, recordId: string, lineId: string, quantity: number) =>
    planFulfillment(
      handle.db,
      ctxOf(shop),
      planFulfillmentInputSchema.parse({ recordId, lines: [{ lineId, quantity }] }),
      newKey(),
    );
  const postage = {
    carrier: 'DHL',
    service: 'Express',
    trackingNumber: 'JD0001',
    trackingUrl: 'https://dhl.example/JD0001',
  };
  const handOff = (
    shop: OrderTenant,
    recordId: string,
    fulfillmentId: string,
    key?: string,
    notifyCustomer = true,
  ) =>
    handOffFulfillment(
      handle.db,
      ctxOf(shop),
      handOffFulfillmentInputSchema.parse({ recordId, fulfillmentId, notifyCustomer }),
      key,
    );

  it('allocates, gets external postage, hands off once, delivers', async () => {
    const { shop, orderId, recordId, teeLine } = await orderWithStock(10, 4);
    const planned = (await plan(shop, orderId, teeLine, 3)).body;
    expect(planned).toMatchObject({
      status: 'PLANNED',
      origin: 'PLANNED',
      postage: null,
      notification: null,
    });
    expect(await countersOf(shop, teeLine)).toEqual({ shipped_quantity: 0, allocated_quantity: 3 });
    expect(await statusesOf(shop, orderId, recordId)).toEqual(['UNFULFILLED', 'UNFULFILLED']);
    expect(await stockOf(shop)).toBe(10);
    const early = await failureOf(handOff(shop, orderId, planned.id));
    expect(early.code).toBe('INVALID_STATE_TRANSITION');

    const ready = await attachExternalPostage(handle.db, ctxOf(shop), {
      recordId,
      fulfillmentId: planned.id,
      ...postage,
    });
    expect(ready).toMatchObject({
      status: 'READY',
      version: 2,
      postage: {
        source: 'EXTERNAL',
        status: 'ACTIVE',
        carrier: 'DHL',
        trackingNumber: 'JD0001',
        labelAvailable: false,
        chargeInCents: null,
      },
      tracking: { carrier: 'DHL', trackingNumber: 'JD0001', trackingUrl: 'https://dhl.example/JD0001' },
    });
    expect(ready.postage!.id).toMatch(/^pst_/);
    const again = await failureOf(
      attachExternalPostage(handle.db, ctxOf(shop), { recordId, fulfillmentId: planned.id, ...postage }),
    );
    expect(again.code).toBe('INVALID_STATE_TRANSITION');

    // A handoff retried with its key, and raced with other keys, consumes stock once.
    const key = newKey();
    const results = await Promise.allSettled([
      handOff(shop, orderId, planned.id, key),
      handOff(shop, recordId, planned.id, key),
      handOff(shop, orderId, planned.id, newKey()),
      handOff(shop, orderId, planned.id),
    ]);
    const byKey = results.slice(0, 2);
    const others = results.slice(2);
    const keyedWins = byKey.filter((result) => result.status === 'fulfilled').length;
    const otherWins = others.filter((result) => result.status === 'fulfilled').length;
    // Either the keyed request won (its twin replays it) or one without that key did (both keyed ones are refused).
    expect([keyedWins, otherWins]).toSatisfy(
      ([keyed, other]: number[]) => (keyed === 2 && other === 0) || (keyed === 0 && other === 1),
    );
    for (const result of results)
      if (result.status === 'rejected')
        expect((result.reason as AppError).code).toBe('INVALID_STATE_TRANSITION');
    expect(await stockOf(shop)).toBe(7);
    expect(await movementsOf(shop)).toHaveLength(1);
    expect(await countersOf(shop, teeLine)).toEqual({ shipped_quantity: 3, allocated_quantity: 0 });
    expect(await statusesOf(shop, orderId, recordId)).toEqual(['PARTIALLY_FULFILLED', 'PARTIALLY_FULFILLED']);
    expect(await shippedEmails(shop)).toHaveLength(1);
    const replay = keyedWins > 0 ? await handOff(shop, orderId, planned.id, key) : undefined;
    const shipped = await getFulfillment(handle.db, shop.organizationId, {
      recordId,
      fulfillmentId: planned.id,
    });
    expect(shipped).toMatchObject({
      status: 'SHIPPED',
      notification: { decision: 'SEND', emailQueued: true },
    });
    if (keyedWins > 0) expect(replay).toMatchObject({ replayed: true, body: { status: 'SHIPPED' } });
    else expect(replay).toBeUndefined();
    expect(await stockOf(shop)).toBe(7);

    const future = await failureOf(
      deliverFulfillment(handle.db, ctxOf(shop), {
        recordId,
        fulfillmentId: planned.id,
        deliveredAt: new Date('2030-01-01T00:00:00Z'),
      }),
    );
    expect(future.code).toBe('VALIDATION_FAILED');
    clock.advance(60_000);
    const delivered = await deliverFulfillment(handle.db, ctxOf(shop), {
      recordId: orderId,
      fulfillmentId: planned.id,
    });
    expect(delivered).toMatchObject({ status: 'DELIVERED', deliveredAt: clock.now().toISOString() });
    for (const move of [
      () => deliverFulfillment(handle.db, ctxOf(shop), { recordId, fulfillmentId: planned.id }),
      () => cancelFulfillment(handle.db, ctxOf(shop), { recordId, fulfillmentId: planned.id }),
      () => handOff(shop, recordId, planned.id),
    ])
      expect((await failureOf(move())).code).toBe('INVALID_STATE_TRANSITION');
    expect(await statusesOf(shop, orderId, recordId)).toEqual(['PARTIALLY_FULFILLED', 'PARTIALLY_FULFILLED']);
    const actions = await handle.db
      .selectFrom('audit_logs')
      .select('action')
      .where('organization_id', '=', shop.organizationId)
      .where('target_id', '=', planned.id)
      .orderBy('id')
      .execute();
    expect(actions.map((row) => row.action)).toEqual([
      'fulfillment.planned',
      'fulfillment.external_postage_attached',
      'fulfillment.handed_off',
      'fulfillment.delivered',
    ]);
  });

  it('releases an allocation once when cancelled twice, even concurrently', async () => {
    const { shop, orderId, recordId, teeLine } = await orderWithStock(10, 4);
    const planned = (await plan(shop, orderId, teeLine, 3)).body;
    const other = (await plan(shop, orderId, teeLine, 1)).body;
    await attachExternalPostage(handle.db, ctxOf(shop), { recordId, fulfillmentId: other.id, ...postage });
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        cancelFulfillment(handle.db, ctxOf(shop), {
          recordId,
          fulfillmentId: planned.id,
          reason: 'Out of boxes',
        }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected')
        expect((result.reason as AppError).code).toBe('INVALID_STATE_TRANSITION');
    expect(await countersOf(shop, teeLine)).toEqual({ shipped_quantity: 0, allocated_quantity: 1 });
    // READY with external postage is cancellable too.
    const cancelled = await cancelFulfillment(handle.db, ctxOf(shop), {
      recordId: orderId,
      fulfillmentId: other.id,
    });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancelReason: null });
    expect(await countersOf(shop, teeLine)).toEqual({ shipped_quantity: 0, allocated_quantity: 0 });
    expect(await stockOf(shop)).toBe(10);
    const page = await listFulfillments(
      handle.db,
      shop.organizationId,
      fulfillmentListQuerySchema.parse({ recordId: orderId, limit: 1 }),
    );
    expect(page.data.map((entry) => entry.id)).toEqual([planned.id]);
    const next = await listFulfillments(
      handle.db,
      shop.organizationId,
      fulfillmentListQuerySchema.parse({ recordId, limit: 1, cursor: page.nextCursor }),
    );
    expect(next).toMatchObject({ data: [{ id: other.id, status: 'CANCELLED' }], nextCursor: null });
  });

  it('keeps a fulfillment of another record or tenant behind the neutral 404', async () => {
    const first = await orderWithStock(10, 2);
    const second = await orderWithStock(10, 2);
    const planned = (await plan(first.shop, first.orderId, first.teeLine, 1)).body;
    for (const [organizationId, recordId] of [
      [first.shop.organizationId, second.recordId],
      [second.shop.organizationId, first.recordId],
      [first.shop.organizationId, 'sal_unknown'],
    ] as const) {
      const error = await failureOf(
        getFulfillment(handle.db, organizationId, { recordId, fulfillmentId: planned.id }),
      );
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
    }
  });
});

describe('customer-visible shipments', () => {
  it('lists shipped and delivered fulfillments on account reads, never plans or cancelled ones', async () => {
    const { shop, orderId, recordId, teeLine } = await orderWithStock(10, 4);
    await updateOrderStatus(
      handle.db,
      shop.ctx(),
      { id: orderId, status: 'CONFIRMED' },
      ORDER_STATUS_EFFECTS,
    );
    const shipped = await createDirectFulfillment(
      handle.db,
      ctxOf(shop),
      direct(orderId, [{ lineId: teeLine, quantity: 1 }], {
        tracking: { carrier: 'UPS', trackingNumber: 'A1' },
      }),
      newKey(),
    );
    const plan = planFulfillmentInputSchema.parse({ recordId, lines: [{ lineId: teeLine, quantity: 1 }] });
    await planFulfillment(handle.db, ctxOf(shop), plan, newKey());
    const dropped = await planFulfillment(handle.db, ctxOf(shop), plan, newKey());
    await cancelFulfillment(handle.db, ctxOf(shop), { recordId, fulfillmentId: dropped.body.id });
    await deliverFulfillment(handle.db, ctxOf(shop), { recordId, fulfillmentId: shipped.body.id });
    const expected = [
      {
        status: 'DELIVERED',
        carrier: 'UPS',
        trackingNumber: 'A1',
        trackingUrl: null,
        shippedAt: shipped.body.shippedAt,
        deliveredAt: clock.now().toISOString(),
        lines: [{ name: 'Tee', quantity: 1 }],
      },
    ];
    expect((await getCustomerOrder(handle.db, shop.organizationId, orderId)).shipments).toEqual(expected);
    const page = await listCustomerAccountOrders(handle.db, shop.organizationId, {
      ...publicOrderListQuerySchema.parse({}),
      email: 'ada@example.com',
    });
    expect(page.data.map((order) => order.shipments)).toEqual([expected]);
  });

  it('shows the customer where the order ships on account reads, null while it has no address', async () => {
    const { shop, orderId } = await orderWithStock(10, 1);
    // A legacy order shows in the account once the merchant has confirmed it.
    await updateOrderStatus(
      handle.db,
      shop.ctx(),
      { id: orderId, status: 'CONFIRMED' },
      ORDER_STATUS_EFFECTS,
    );
    const owner = { ...publicOrderListQuerySchema.parse({}), email: 'ada@example.com' };
    expect((await getCustomerOrder(handle.db, shop.organizationId, orderId)).shippingAddress).toBeNull();
    const address = {
      name: 'Ada Lovelace',
      line1: '1 Main Street',
      line2: null,
      city: 'Springfield',
      state: 'IL',
      postalCode: '12345',
      country: 'US',
      phone: null,
    };
    await handle.db
      .updateTable('orders')
      .set({ shipping_address: JSON.stringify(address) })
      .where('id', '=', orderId)
      .execute();
    expect((await getCustomerOrder(handle.db, shop.organizationId, orderId)).shippingAddress).toEqual(
      address,
    );
    const page = await listCustomerAccountOrders(handle.db, shop.organizationId, owner);
    expect(page.data.map((order) => order.shippingAddress)).toEqual([address]);
  });
});

describe('the line counters CHECK', () => {
  it('refuses a counter past the line quantity or below zero, as 409 OVER_FULFILLMENT through changeCounters', async () => {
    const { shop, recordId, teeLine } = await orderWithStock(10, 2);
    for (const change of [
      { lineId: teeLine, shipped: 2, allocated: 1 },
      { lineId: teeLine, shipped: -1, allocated: 0 },
      { lineId: teeLine, shipped: 0, allocated: -1 },
    ]) {
      const error = await failureOf(
        handle.db.transaction().execute(async (trx) => {
          const target = await lockRecord(trx, shop.organizationId, recordId);
          await changeCounters(trx, target, [change], clock.now());
        }),
      );
      expect(error.code).toBe('OVER_FULFILLMENT');
    }
    expect(await countersOf(shop, teeLine)).toEqual({ shipped_quantity: 0, allocated_quantity: 0 });
  });
});

describe('stock consumption against a checkout reservation', () => {
  it('draws reserved units from the reservation, the rest from stock down to zero with a shortfall', async () => {
    const { shop, orderId, teeLine } = await orderWithStock(1, 5);
    // Checkout took 3 of these units off the stock when it reserved them; the reservation is the sale's.
    const sessionId = `chk_fulfil_${process.pid}_${keySequence}`;
    await handle.db
      .insertInto('checkout_sessions')
      .values({
        organization_id: shop.organizationId,
        id: sessionId,
        token_hash: `hash_${sessionId}`,
        status: 'COMPLETED',
        currency: 'USD',
        expires_at: clock.now(),
        order_id: orderId,
        created_at: clock.now(),
        updated_at: clock.now(),
      })
      .execute();
    await handle.db
      .insertInto('inventory_reservations')
      .values({
        organization_id: shop.organizationId,
        id: `rsv_fulfil_${process.pid}_${keySequence}`,
        checkout_session_id: sessionId,
        variant_id: shop.variantId,
        quantity: 3,
        status: 'CONSUMED',
        created_at: clock.now(),
        updated_at: clock.now(),
      })
      .execute();
    const first = await createDirectFulfillment(
      handle.db,
      ctxOf(shop),
      direct(orderId, [{ lineId: teeLine, quantity: 2 }]),
      newKey(),
    );
    expect(await stockOf(shop)).toBe(1);
    await createDirectFulfillment(
      handle.db,
      ctxOf(shop),
      direct(orderId, [{ lineId: teeLine, quantity: 3 }]),
      newKey(),
    );
    // One unit from the reservation's last, one from stock, one short.
    expect(await stockOf(shop)).toBe(0);
    const movements = await movementsOf(shop);
    const byFirst = (row: { fulfillment_id: string }) => row.fulfillment_id === first.body.id;
    expect(movements.filter(byFirst)).toMatchObject([{ quantity: 2, shortfall_quantity: 0 }]);
    expect(movements.filter((row) => !byFirst(row))).toMatchObject([{ quantity: 3, shortfall_quantity: 1 }]);
    const reservation = await handle.db
      .selectFrom('inventory_reservations')
      .select(['quantity', 'fulfilled_quantity'])
      .where('organization_id', '=', shop.organizationId)
      .where('checkout_session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(reservation).toEqual({ quantity: 3, fulfilled_quantity: 3 });
  });
});

describe('records without a legacy order, unpaid records and the shipment email', () => {
  const saleOf = async (shop: OrderTenant, paymentStatus: 'AWAITING_PAYMENT' | 'PAID') =>
    recordSale(handle.db, {
      organizationId: shop.organizationId,
      source: 'CHECKOUT',
      currency: 'USD',
      customer: { name: 'Grace Hopper', email: 'grace@example.com', phone: null },
      lines: [
        {
          type: 'PRODUCT',
          itemId: shop.itemId,
          variantId: null,
          name: 'Compiler',
          quantity: 2,
          unitPriceInCents: 100,
        },
      ],
      shippingInCents: 0,
      taxInCents: 0,
      taxIncluded: false,
      discountInCents: 0,
      paymentStatus,
      at: clock.now(),
    });

  it('refuses an unpaid record and ships a paid one addressed by its sal_ id, with orderId null', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const unpaid = await saleOf(shop, 'AWAITING_PAYMENT');
    const refused = await failureOf(
      createDirectFulfillment(
        handle.db,
        ctxOf(shop),
        direct(unpaid.record.id, [{ lineId: unpaid.lines[0]!.id, quantity: 1 }]),
        newKey(),
      ),
    );
    expect(refused.code).toBe('ORDER_NOT_FULFILLABLE');
    expect(refused.details).toEqual({ reason: 'AWAITING_PAYMENT' });

    const paid = await saleOf(shop, 'PAID');
    const shipped = await createDirectFulfillment(
      handle.db,
      ctxOf(shop),
      direct(paid.record.id, [{ lineId: paid.lines[0]!.id, quantity: 2 }], {
        tracking: {
          carrier: 'FedEx',
          trackingNumber: '7712 3456',
          trackingUrl: 'https://fedex.example/7712',
        },
      }),
      newKey(),
    );
    expect(shipped.body).toMatchObject({
      orderId: null,
      recordId: paid.record.id,
      recordFulfillmentStatus: 'FULFILLED',
    });
    const record = await handle.db
      .selectFrom('sales_records')
      .select('fulfillment_status')
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', paid.record.id)
      .executeTakeFirstOrThrow();
    expect(record.fulfillment_status).toBe('FULFILLED');
    const [email] = await handle.db
      .selectFrom('outbox')
      .select(['payload', 'metadata', 'dedupe_key'])
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(email!.dedupe_key).toBe(`ORDER_SHIPPED:${shipped.body.id}`);
    expect(email!.metadata).toMatchObject({ templateType: 'ORDER_SHIPPED', fulfillmentId: shipped.body.id });
    const payload = email!.payload as { to: string; text: string };
    expect(payload.to).toBe('grace@example.com');
    expect(payload.text).toContain('FedEx');
    expect(payload.text).toContain('7712 3456');
    expect(payload.text).toContain('https://shop.example/account/orders');
  });
});
