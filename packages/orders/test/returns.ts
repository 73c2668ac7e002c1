import type { ManualClock } from '@commerce/core';
import type { Database, OrderStatus } from '@commerce/db';
import type { Kysely } from 'kysely';
import { updateOrderStatus } from '../src/order-status/update-order-status.ts';
import { createLegacyOrder } from '../src/orders/create-legacy-order.ts';
import type { CreatedLegacyOrder } from '../src/orders/schemas.ts';
import type { CustomerReturnScope, ReturnCustomer, ReturnWriteContext } from '../src/returns/schemas.ts';
import { createOrderTenant, ORDER_STATUS_EFFECTS, type OrderTenant, TEST_EMAIL_CONFIG } from './orders.ts';
import { seedShipment } from './shipments.ts';

const PATHS: Record<OrderStatus, OrderStatus[]> = {
  PENDING: [],
  CONFIRMED: ['CONFIRMED'],
  PROCESSING: ['CONFIRMED', 'PROCESSING'],
  COMPLETED: ['CONFIRMED', 'PROCESSING', 'COMPLETED'],
  CANCELLED: ['CANCELLED'],
};

export interface ReturnShop {
  shop: OrderTenant;
  organizationId: string;
  /** Ada, who places the orders (`ada@example.com`). */
  customer: ReturnCustomer;
  /** A signed-in customer of the same shop with other orders. */
  stranger: ReturnCustomer;
  scope(customer?: ReturnCustomer, returnWindowDays?: number): CustomerReturnScope;
  merchant(): ReturnWriteContext;
  /**
   * An order of Ada's with a line of 3 tees at $15 and one of 2 mugs at $9, brought to `status`;
   * a COMPLETED one has shipped every unit now (a seeded shipment), so its return window is open.
   */
  order(status?: OrderStatus): Promise<CreatedLegacyOrder>;
  /** Ships `quantity` units of a line of the order now (a seeded shipment, no email). */
  ship(orderId: string, lines: { lineId: string; quantity: number }[]): Promise<void>;
}

export async function createReturnShop(db: Kysely<Database>, clock: ManualClock): Promise<ReturnShop> {
  const shop = await createOrderTenant(db, clock);
  const customer = { organizationId: shop.organizationId, customerId: 'cus_ada', email: 'ADA@example.com' };
  const stranger = { organizationId: shop.organizationId, customerId: 'cus_eve', email: 'eve@example.com' };
  const ship = async (orderId: string, lines: { lineId: string; quantity: number }[]) => {
    await seedShipment(db, { organizationId: shop.organizationId, orderId, lines, at: clock.now() });
  };
  return {
    shop,
    organizationId: shop.organizationId,
    customer,
    stranger,
    scope: (who = customer, returnWindowDays = 30) => ({
      customer: who,
      returnWindowDays,
      email: TEST_EMAIL_CONFIG,
      at: clock.now(),
    }),
    merchant: () => ({
      organizationId: shop.organizationId,
      actor: { userId: 'usr_returns_test', email: 'merchant@returns.test' },
      email: TEST_EMAIL_CONFIG,
      at: clock.now(),
    }),
    order: async (status = 'COMPLETED') => {
      const order = await createLegacyOrder(
        db,
        shop.scope(),
        shop.body({
          items: [
            { itemId: shop.itemId, name: 'Tee', quantity: 3, unitPriceInCents: 1500 },
            {
              itemId: shop.itemId,
              variantId: shop.variantId,
              name: 'Mug',
              quantity: 2,
              unitPriceInCents: 900,
            },
          ],
        }),
      );
      for (const next of PATHS[status])
        await updateOrderStatus(db, shop.ctx(), { id: order.id, status: next }, ORDER_STATUS_EFFECTS);
      if (status === 'COMPLETED')
        await ship(
          order.id,
          order.items.map((line) => ({ lineId: line.id, quantity: line.quantity })),
        );
      return order;
    },
    ship: (orderId, lines) => ship(orderId, lines),
  };
}
