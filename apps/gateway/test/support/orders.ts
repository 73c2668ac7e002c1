import { SHIP_TO } from '@commerce/fulfillment/testing';
import { createItem } from './catalog-fixture.ts';
import { expectJson, type Harness } from './harness.ts';
import type { RoleFixture } from './roles.ts';

/** An order as the fulfillment tests need it: its id, its sales record and its one line. */
export interface PlacedOrder {
  id: string;
  salesRecordId: string;
  lineId: string;
}

/** A line of a guest order, as the public order route takes it. */
export interface GuestOrderLine {
  itemId: string;
  variantId?: string | null;
  name: string;
  quantity: number;
  unitPriceInCents: number;
}

/** Who orders, when not Ada: the order's customer fields. */
export interface GuestOrderCustomer {
  customerName?: string;
  customerEmail?: string;
  notes?: string;
}

/** A guest order placed on the public order route (201, else the failure): Ada's unless told otherwise. */
export async function createGuestOrder<T extends { id: string } = { id: string; orderStatusToken: string }>(
  h: Harness,
  slug: string,
  items: GuestOrderLine[],
  customer: GuestOrderCustomer = {},
): Promise<T> {
  const body = Object.assign({ customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' }, customer, {
    items,
  });
  return expectJson<T>(
    await h.app.request('/api/v1/public/orders', {
      method: 'POST',
      headers: { 'x-organization-slug': slug, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    201,
  );
}

/** A guest order of `fixture`'s store, read back as its Owner sees it, with the order-status token. */
export async function placeGuestOrder<T extends { id: string }>(
  h: Harness,
  fixture: RoleFixture,
  items: GuestOrderLine[],
  customer: GuestOrderCustomer = {},
): Promise<T & { orderStatusToken: string }> {
  const created = await createGuestOrder(h, fixture.slug, items, customer);
  const order = await expectJson<T>(
    await fixture.call('owner', 'GET', `/merchant/orders/${created.id}`),
    200,
  );
  return Object.assign(order, { orderStatusToken: created.orderStatusToken });
}

/** Sets the order's ship-to through the shipping-address route; the order it answers (200, else the failure). */
export async function setShipTo<T>(
  fixture: RoleFixture,
  orderId: string,
  address: object = SHIP_TO,
): Promise<T> {
  return expectJson<T>(
    await fixture.call('owner', 'PUT', `/merchant/orders/${orderId}/shipping-address`, address),
    200,
  );
}

/**
 * An ACTIVE sale item of `fixture`'s store and a guest order of `quantity` of it at 10.00, both
 * through the API, read back as the merchant sees the order.
 */
export async function placeOrderThroughApi(
  h: Harness,
  fixture: RoleFixture,
  options: { slug: string; name: string; quantity: number; notes?: string },
): Promise<PlacedOrder> {
  const itemId = await createItem(fixture, {
    slug: options.slug,
    name: options.name,
    type: 'SALE',
    status: 'ACTIVE',
  });
  const order = await placeGuestOrder<{ id: string; salesRecordId: string; items: { id: string }[] }>(
    h,
    fixture,
    [
      {
        itemId,
        variantId: null,
        name: options.name,
        quantity: options.quantity,
        unitPriceInCents: 1000,
      },
    ],
    options.notes === undefined ? {} : { notes: options.notes },
  );
  return { id: order.id, salesRecordId: order.salesRecordId, lineId: order.items[0]!.id };
}

/** A PLANNED fulfillment of one unit of the order's line, under `idempotencyKey`; its id. */
export async function planOneUnit(
  fixture: RoleFixture,
  order: PlacedOrder,
  idempotencyKey: string,
): Promise<string> {
  const planned = await expectJson<{ id: string }>(
    await fixture.call(
      'owner',
      'POST',
      `/merchant/commerce/orders/${order.salesRecordId}/planned-fulfillments`,
      { lines: [{ lineId: order.lineId, quantity: 1 }] },
      { 'x-idempotency-key': idempotencyKey },
    ),
    201,
  );
  return planned.id;
}
