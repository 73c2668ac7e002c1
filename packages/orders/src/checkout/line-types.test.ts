import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle, ItemType } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHECKOUT_EMAIL_CONFIG,
  type CheckoutShop,
  createCheckoutShop,
  createFakePaymentProvider,
} from '../../test/checkout.ts';
import { ORDER_STATUS_EFFECTS } from '../../test/orders.ts';
import { createReturnShop } from '../../test/returns.ts';
import { updateOrderStatus } from '../order-status/update-order-status.ts';
import { createLegacyOrder } from '../orders/create-legacy-order.ts';
import { issueReturnAction } from '../return-actions/issue-return-action.ts';
import { createReturn } from '../returns/create-return.ts';
import { bindCheckoutSession } from './bind-checkout-session.ts';
import { createCheckoutSession } from './create-checkout-session.ts';
import { createPaymentSession } from './create-payment-session.ts';
import { repriceCheckoutSession } from './reprice-checkout-session.ts';

// Line types follow item types (docs/checkout.md "Line types").

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Adds an ACTIVE item of a type, priced 4000, with an optional variant (tracked when `stock` is a number). */
async function addItem(
  organizationId: string,
  id: string,
  type: ItemType,
  variant?: { id: string; stock: number | null },
): Promise<void> {
  await handle.db
    .insertInto('items')
    .values({
      organization_id: organizationId,
      id,
      slug: id.replace(/_/g, '-').toLowerCase(),
      name: `${type} item`,
      type,
      status: 'ACTIVE',
      price_in_cents: 4000,
    })
    .execute();
  if (variant)
    await handle.db
      .insertInto('variants')
      .values({
        organization_id: organizationId,
        id: variant.id,
        item_id: id,
        name: 'Slot',
        inventory_quantity: variant.stock,
      })
      .execute();
}

interface TypedShop extends CheckoutShop {
  serviceItemId: string;
  /** A SERVICE item whose only variant tracks inventory (3 units). */
  trackedService: { itemId: string; variantId: string };
  rentalItemId: string;
}

async function typedShop(): Promise<TypedShop> {
  const s = await createCheckoutShop(handle.db, clock);
  const tag = s.organizationId.slice('org_checkout_'.length);
  const serviceItemId = `itm_service_${tag}`;
  const trackedService = { itemId: `itm_lesson_${tag}`, variantId: `var_lesson_${tag}` };
  const rentalItemId = `itm_rental_${tag}`;
  await addItem(s.organizationId, serviceItemId, 'SERVICE');
  await addItem(s.organizationId, trackedService.itemId, 'SERVICE', {
    id: trackedService.variantId,
    stock: 3,
  });
  await addItem(s.organizationId, rentalItemId, 'RENTAL');
  return { ...s, serviceItemId, trackedService, rentalItemId };
}

const contact = { email: 'ada@example.com', customerName: 'Ada Lovelace' };

const saleLinesOf = (organizationId: string, orderId: string) =>
  handle.db
    .selectFrom('orders')
    .innerJoin('sales_record_lines as l', (join) =>
      join
        .onRef('l.organization_id', '=', 'orders.organization_id')
        .onRef('l.sales_record_id', '=', 'orders.sales_record_id'),
    )
    .select(['l.type', 'l.item_id'])
    .where('orders.organization_id', '=', organizationId)
    .where('orders.id', '=', orderId)
    .orderBy('l.position')
    .execute();

const variantStock = async (organizationId: string, variantId: string) =>
  (
    await handle.db
      .selectFrom('variants')
      .select('inventory_quantity')
      .where('organization_id', '=', organizationId)
      .where('id', '=', variantId)
      .executeTakeFirstOrThrow()
  ).inventory_quantity;

describe('checkout line types', () => {
  it('prices a SERVICE item as a SERVICE line with no shipping, binds it without a destination, and orders it as SERVICE', async () => {
    const s = await typedShop();
    const created = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [{ itemId: s.serviceItemId, quantity: 2 }],
      ...contact,
      shippingCountry: 'US',
    });
    expect(created.lines).toEqual([expect.objectContaining({ type: 'SERVICE', itemId: s.serviceItemId })]);
    expect(created).toMatchObject({
      shippingRequired: false,
      shippingOptions: [],
      shippingRateId: null,
      shippingInCents: 0,
      totalInCents: 8000,
    });
    const cleared = await repriceCheckoutSession(handle.db, s.scope(), {
      token: created.checkoutToken,
      shippingCountry: null,
    });
    expect(cleared.shippingRequired).toBe(false);
    const bound = await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    expect(bound).toMatchObject({ status: 'BOUND', shippingInCents: 0, totalInCents: 8000 });

    const handoff = await createPaymentSession(
      handle.db,
      createFakePaymentProvider(),
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      { token: created.checkoutToken },
    );
    expect(await saleLinesOf(s.organizationId, handoff.orderId!)).toEqual([
      { type: 'SERVICE', item_id: s.serviceItemId },
    ]);
  });

  it('ships a cart with a PRODUCT line beside a SERVICE line, and orders each line with its type', async () => {
    const s = await typedShop();
    const created = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [
        { itemId: s.plainItemId, quantity: 1 },
        { itemId: s.serviceItemId, quantity: 1 },
      ],
      ...contact,
      shippingCountry: 'US',
    });
    expect(created.lines.map((line) => line.type)).toEqual(['PRODUCT', 'SERVICE']);
    expect(created).toMatchObject({ shippingRequired: true, shippingRateId: s.rates.standard });
    expect(created.shippingInCents).toBe(500);
    await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    const handoff = await createPaymentSession(
      handle.db,
      createFakePaymentProvider(),
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      { token: created.checkoutToken },
    );
    expect(await saleLinesOf(s.organizationId, handoff.orderId!)).toEqual([
      { type: 'PRODUCT', item_id: s.plainItemId },
      { type: 'SERVICE', item_id: s.serviceItemId },
    ]);
  });

  it('refuses a shipping rate for a cart without PRODUCT lines', async () => {
    const s = await typedShop();
    const error = await failureOf(
      createCheckoutSession(handle.db, s.createScope(), {
        lines: [{ itemId: s.serviceItemId, quantity: 1 }],
        shippingCountry: 'US',
        shippingRateId: s.rates.standard,
      }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual({ issues: [{ path: 'shippingRateId', message: expect.any(String) }] });
  });

  it('refuses a RENTAL line with 400 naming the line, on create and on reprice', async () => {
    const s = await typedShop();
    const error = await failureOf(
      createCheckoutSession(handle.db, s.createScope(), {
        lines: [
          { itemId: s.plainItemId, quantity: 1 },
          { itemId: s.rentalItemId, quantity: 1 },
        ],
      }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual({
      issues: [{ path: 'lines.1.itemId', message: expect.stringContaining('rental') }],
    });

    const created = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [{ itemId: s.plainItemId, quantity: 1 }],
    });
    const repriced = await failureOf(
      repriceCheckoutSession(handle.db, s.scope(), {
        token: created.checkoutToken,
        lines: [{ itemId: s.rentalItemId, quantity: 1 }],
      }),
    );
    expect(repriced.code).toBe('VALIDATION_FAILED');
    expect(repriced.details).toEqual({
      issues: [{ path: 'lines.0.itemId', message: expect.stringContaining('rental') }],
    });
  });

  it('reserves a SERVICE line only when its variant tracks inventory', async () => {
    const s = await typedShop();
    const created = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [
        { itemId: s.trackedService.itemId, variantId: s.trackedService.variantId, quantity: 2 },
        { itemId: s.serviceItemId, quantity: 5 },
      ],
      ...contact,
    });
    await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    expect(await variantStock(s.organizationId, s.trackedService.variantId)).toBe(1);
    const reservations = await handle.db
      .selectFrom('inventory_reservations')
      .select(['variant_id', 'quantity'])
      .where('organization_id', '=', s.organizationId)
      .execute();
    expect(reservations).toEqual([{ variant_id: s.trackedService.variantId, quantity: 2 }]);
  });
});

describe('legacy order line types', () => {
  it('writes a SERVICE item as a SERVICE line and a SALE item as a PRODUCT line', async () => {
    const r = await createReturnShop(handle.db, clock);
    const serviceItemId = `itm_service_${r.organizationId}`;
    await addItem(r.organizationId, serviceItemId, 'SERVICE');
    const order = await createLegacyOrder(
      handle.db,
      r.shop.scope(),
      r.shop.body({
        items: [
          { itemId: r.shop.itemId, name: 'Tee', quantity: 1, unitPriceInCents: 1500 },
          { itemId: serviceItemId, name: 'Fitting', quantity: 1, unitPriceInCents: 3000 },
        ],
      }),
    );
    expect(order.items.map((line) => line.type)).toEqual(['PRODUCT', 'SERVICE']);
    expect(await saleLinesOf(r.organizationId, order.id)).toEqual([
      { type: 'PRODUCT', item_id: r.shop.itemId },
      { type: 'SERVICE', item_id: serviceItemId },
    ]);
  });

  it('refuses a RENTAL item with 400 naming the line, and writes nothing', async () => {
    const r = await createReturnShop(handle.db, clock);
    const rentalItemId = `itm_rental_${r.organizationId}`;
    await addItem(r.organizationId, rentalItemId, 'RENTAL');
    const error = await failureOf(
      createLegacyOrder(
        handle.db,
        r.shop.scope(),
        r.shop.body({
          items: [
            { itemId: r.shop.itemId, name: 'Tee', quantity: 1, unitPriceInCents: 1500 },
            { itemId: rentalItemId, name: 'Kayak', quantity: 1, unitPriceInCents: 3000 },
          ],
        }),
      ),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual({
      issues: [{ path: 'items.1.itemId', message: expect.stringContaining('rental') }],
    });
    const orders = await handle.db
      .selectFrom('orders')
      .select('id')
      .where('organization_id', '=', r.organizationId)
      .execute();
    expect(orders).toEqual([]);
  });

  it('keeps SERVICE lines out of returns and return-action tokens', async () => {
    const r = await createReturnShop(handle.db, clock);
    const serviceItemId = `itm_service_${r.organizationId}`;
    await addItem(r.organizationId, serviceItemId, 'SERVICE');
    const order = await createLegacyOrder(
      handle.db,
      r.shop.scope(),
      r.shop.body({
        items: [
          { itemId: r.shop.itemId, name: 'Tee', quantity: 1, unitPriceInCents: 1500 },
          { itemId: serviceItemId, name: 'Fitting', quantity: 1, unitPriceInCents: 3000 },
        ],
      }),
    );
    for (const status of ['CONFIRMED', 'PROCESSING', 'COMPLETED'] as const)
      await updateOrderStatus(handle.db, r.shop.ctx(), { id: order.id, status }, ORDER_STATUS_EFFECTS);
    const [tee, fitting] = order.items;
    await r.ship(order.id, [{ lineId: tee!.id, quantity: 1 }]);

    const refused = await failureOf(
      createReturn(
        handle.db,
        r.scope(),
        { orderReference: order.orderReference! },
        { lines: [{ lineId: fitting!.id, quantity: 1, reason: 'OTHER' }] },
      ),
    );
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.details).toEqual({
      issues: [{ path: 'lines.0.lineId', message: 'does not name a PRODUCT line of the order' }],
    });

    const issued = await issueReturnAction(
      handle.db,
      r.scope(),
      { orderReference: order.orderReference! },
      { purpose: 'RETURN_REQUEST' },
    );
    expect(issued.lines.map((line) => line.lineId)).toEqual([tee!.id]);
  });
});
