import type { Harness } from './harness.ts';
import type { Actor, RoleFixture } from './roles.ts';

/** Helpers of the label routes' HTTP tests: a shop that ships mugs, orders of two, and the purchase body. */

export interface LabelOrder {
  id: string;
  salesRecordId: string;
  items: { id: string; type: string; quantity: number }[];
}

export async function ok<T>(response: Response, status = 200): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

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
      const placed = await ok<{ id: string }>(
        await h.app.request('/api/v1/public/orders', {
          method: 'POST',
          headers: { 'x-organization-slug': fixture.slug, 'content-type': 'application/json' },
          body: JSON.stringify({
            customerName: 'Ada Lovelace',
            customerEmail: 'ada@example.com',
            items: [{ itemId: mug.id, variantId: null, name: 'Mug', quantity: 2, unitPriceInCents: 1200 }],
          }),
        }),
        201,
      );
      await ok(
        await fixture.call('owner', 'PUT', `/merchant/orders/${placed.id}/shipping-address`, {
          name: 'Ada Lovelace',
          line1: '2 Main St',
          city: 'Shelbyville',
          postalCode: '54321',
          country: 'US',
        }),
      );
      return ok<LabelOrder>(await fixture.call('owner', 'GET', `/merchant/orders/${placed.id}`));
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
