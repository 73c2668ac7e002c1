import { expectJson, type Harness } from './harness.ts';
import { placeGuestOrder, setShipTo } from './orders.ts';
import type { Actor, RoleFixture } from './roles.ts';

/** Helpers of the label routes' HTTP tests: a shop that ships mugs, orders of two, and the purchase body. */

export interface LabelOrder {
  id: string;
  salesRecordId: string;
  items: { id: string; type: string; quantity: number }[];
}

/** The JSON of an answer of `status` (200 unless told), else an error with what came instead. */
export const ok = <T>(response: Response, status = 200): Promise<T> => expectJson<T>(response, status);

export interface LabelShop {
  fixture: RoleFixture;
  /** A new order of 2 mugs (no shipping collected) with a ship-to. */
  newOrder(): Promise<LabelOrder>;
}

/** Gives the fixture's organization a ship-from address and a mug with shipping dimensions. */
export async function createLabelShop(h: Harness, fixture: RoleFixture): Promise<LabelShop> {
  const mug = await ok<{ id: string }>(
    await fixture.call('owner', 'POST', '/merchant/items', {
      status: 'ACTIVE',
      slug: 'mug',
      name: 'Mug',
      type: 'SALE',
      shippingWeightGrams: 400,
      shippingLengthMm: 120,
      shippingWidthMm: 90,
      shippingHeightMm: 100,
    }),
    201,
  );
  await ok(
    await fixture.call('owner', 'PATCH', '/merchant/settings', {
      businessProfile: {
        shipFromAddress: {
          name: 'Shop',
          line1: '1 Dock Rd',
          city: 'Springfield',
          postalCode: '12345',
          country: 'US',
        },
      },
    }),
  );
  return {
    fixture,
    newOrder: async () => {
      const order = await placeGuestOrder<LabelOrder>(h, fixture, [
        { itemId: mug.id, variantId: null, name: 'Mug', quantity: 2, unitPriceInCents: 1200 },
      ]);
      return setShipTo<LabelOrder>(fixture, order.id);
    },
  };
}

/** The quote body of the worked example: both mugs, 300 × 200 × 100 mm, 900 g, sandbox GROUND (680). */
export const quoteBody = (order: LabelOrder, changes: Record<string, unknown> = {}) => ({
  lines: [{ lineId: order.items[0]!.id, quantity: 2 }],
  package: { lengthMm: 300, widthMm: 200, heightMm: 100, loadedWeightGrams: 900 },
  carrier: 'sandbox',
  service: 'GROUND',
  ...changes,
});

let keys = 0;
export function newKey(): string {
  keys += 1;
  return `label-key-${process.pid}-${Date.now()}-${keys}`;
}

/**
 * The purchase body a client sends after quoting: the fingerprint, and every acknowledgement and reason
 * the quote requires (the example collected no shipping and uses custom dimensions: high risk, override).
 */
export async function purchaseBody(
  fixture: RoleFixture,
  order: LabelOrder,
  changes: Record<string, unknown> = {},
  actor: Actor = 'owner',
) {
  const quote = await ok<{
    selectionQuoteFingerprint: string;
    decision: { acknowledgementsRequired: string[] };
  }>(
    await fixture.call(actor, 'POST', `/merchant/orders/${order.id}/shipping-label/quote`, quoteBody(order)),
  );
  return {
    ...quoteBody(order),
    selectionQuoteFingerprint: quote.selectionQuoteFingerprint,
    acknowledgements: quote.decision.acknowledgementsRequired,
    overrideReason: 'Our own carton',
    reason: 'Customer paid by phone',
    ...changes,
  };
}
