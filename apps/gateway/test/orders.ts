import { expectJson, type Harness } from './harness.ts';
import type { RoleFixture } from './roles.ts';

/** An order as the fulfillment tests need it: its id, its sales record and its one line. */
export interface PlacedOrder {
  id: string;
  salesRecordId: string;
  lineId: string;
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
  const item = await expectJson<{ id: string }>(
    await fixture.call('owner', 'POST', '/merchant/items', {
      slug: options.slug,
      name: options.name,
      type: 'SALE',
      status: 'ACTIVE',
    }),
    201,
  );
  const created = await expectJson<{ id: string }>(
    await h.app.request('/api/v1/public/orders', {
      method: 'POST',
      headers: { 'x-organization-slug': fixture.slug, 'content-type': 'application/json' },
      body: JSON.stringify({
        customerName: 'Ada Lovelace',
        customerEmail: 'ada@example.com',
        ...(options.notes === undefined ? {} : { notes: options.notes }),
        items: [
          {
            itemId: item.id,
            variantId: null,
            name: options.name,
            quantity: options.quantity,
            unitPriceInCents: 1000,
          },
        ],
      }),
    }),
    201,
  );
  const order = await expectJson<{ id: string; salesRecordId: string; items: { id: string }[] }>(
    await fixture.call('owner', 'GET', `/merchant/orders/${created.id}`),
    200,
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
