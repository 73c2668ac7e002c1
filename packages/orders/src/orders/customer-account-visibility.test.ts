import { ManualClock } from '@commerce/core';
import type { DatabaseHandle, OrderStatus } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderTenant, ORDER_STATUS_EFFECTS, type OrderTenant } from '../../test/orders.ts';
import { updateOrderStatus } from '../order-status/update-order-status.ts';
import { recordSale } from '../sales-records/record-sale.ts';
import { createLegacyOrder } from './create-legacy-order.ts';
import { listCustomerAccountOrderReads } from './list-orders.ts';
import { projectOrder } from './project-order.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

const EMAIL = 'shopper@example.com';

async function legacyOrder(shop: OrderTenant, path: OrderStatus[]): Promise<string> {
  clock.advance(1000);
  const order = await createLegacyOrder(handle.db, shop.scope(), shop.body({ customerEmail: EMAIL }));
  for (const status of path)
    await updateOrderStatus(handle.db, shop.ctx(), { id: order.id, status }, ORDER_STATUS_EFFECTS);
  return order.id;
}

/** An order from checkout awaiting its payment, as payment-session leaves it. */
async function checkoutOrder(shop: OrderTenant): Promise<string> {
  clock.advance(1000);
  const sale = await recordSale(handle.db, {
    organizationId: shop.organizationId,
    source: 'CHECKOUT',
    currency: 'USD',
    customer: { name: 'Shopper', email: EMAIL, phone: null },
    lines: [
      {
        type: 'PRODUCT',
        itemId: shop.itemId,
        variantId: null,
        name: 'Tee',
        quantity: 1,
        unitPriceInCents: 900,
      },
    ],
    shippingInCents: 0,
    taxInCents: 0,
    taxIncluded: false,
    discountInCents: 0,
    paymentStatus: 'AWAITING_PAYMENT',
    at: clock.now(),
  });
  return (await projectOrder(handle.db, sale, { notes: null, at: clock.now() })).id;
}

describe('listCustomerAccountOrderReads', () => {
  it('shows checkout orders, and legacy orders only once the merchant moved them out of PENDING (not by cancelling)', async () => {
    const shop = await createOrderTenant(handle.db, clock);
    const pending = await legacyOrder(shop, []);
    const cancelled = await legacyOrder(shop, ['CANCELLED']);
    const confirmed = await legacyOrder(shop, ['CONFIRMED']);
    const processing = await legacyOrder(shop, ['CONFIRMED', 'PROCESSING']);
    const completed = await legacyOrder(shop, ['CONFIRMED', 'PROCESSING', 'COMPLETED']);
    const confirmedThenCancelled = await legacyOrder(shop, ['CONFIRMED', 'CANCELLED']);
    const checkout = await checkoutOrder(shop);

    const page = await listCustomerAccountOrderReads(handle.db, shop.organizationId, {
      email: EMAIL,
      limit: 50,
    });
    expect(page.data.map((entry) => entry.order.id)).toEqual([checkout, completed, processing, confirmed]);
    for (const hidden of [pending, cancelled, confirmedThenCancelled]) {
      expect(page.data.map((entry) => entry.order.id)).not.toContain(hidden);
    }

    // Pages skip the hidden orders too.
    const first = await listCustomerAccountOrderReads(handle.db, shop.organizationId, {
      email: EMAIL,
      limit: 2,
    });
    const second = await listCustomerAccountOrderReads(handle.db, shop.organizationId, {
      email: EMAIL,
      limit: 2,
      cursor: first.nextCursor!,
    });
    expect([...first.data, ...second.data].map((entry) => entry.order.id)).toEqual(
      page.data.map((entry) => entry.order.id),
    );
    expect(second.nextCursor).toBeNull();
  });
});
