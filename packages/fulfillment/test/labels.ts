import type { AppError, Clock, ErrorCode } from '@commerce/core';
import type { Database } from '@commerce/db';
import { createLegacyOrder } from '@commerce/orders';
import { createOrderTenant, type OrderTenant } from '@commerce/orders/testing';
import type { Kysely } from 'kysely';
import { createBoxPreset } from '../src/box-presets/create-box-preset.ts';
import { createBoxPresetInputSchema } from '../src/box-presets/schemas.ts';
import type { CarrierProvider } from '../src/carrier/carrier-provider.ts';
import { quoteShippingLabel } from '../src/shipping-label/quote-shipping-label.ts';
import {
  type PurchaseShippingLabelInput,
  purchaseShippingLabelInputSchema,
  type ShippingLabelQuote,
  shippingLabelQuoteInputSchema,
} from '../src/shipping-label/schemas.ts';

/** Test fixtures of the label work: a shop with ship-from, an order with a ship-to, and its proven-fit preset. */

export const SHIP_FROM = {
  name: 'Shop',
  line1: '1 Warehouse Rd',
  city: 'Springfield',
  postalCode: '12345',
  country: 'US',
};
export const SHIP_TO = {
  name: 'Ada Lovelace',
  line1: '2 Main St',
  city: 'Shelbyville',
  postalCode: '54321',
  country: 'US',
};

export interface Shop {
  shop: OrderTenant;
  recordId: string;
  orderId: string;
  variantLineId: string;
  itemLineId: string;
  towerId: string;
  /** Another order of the same organization (same items, preset and settings). */
  another(): Promise<Shop>;
}

/**
 * An order of 3 variant units (300 g, 100 × 100 × 50) and 2 item units (200 g,
 * same size): 1300 g of catalog weight; the "Tower" preset (100 × 100 × 250,
 * tare 100) is their proven fit, 1400 g loaded, 500 g volumetric: GROUND 680.
 */
export async function createLabelShop(
  db: Kysely<Database>,
  clock: Clock,
  options: { shipFrom?: boolean; shipTo?: boolean; collectedShippingInCents?: number } = {},
): Promise<Shop> {
  const shop = await createOrderTenant(db, clock);
  const dims = (weight: number) => ({
    shipping_weight_grams: weight,
    shipping_length_mm: 100,
    shipping_width_mm: 100,
    shipping_height_mm: 50,
  });
  await db.updateTable('items').set(dims(200)).where('id', '=', shop.itemId).execute();
  await db.updateTable('variants').set(dims(300)).where('id', '=', shop.variantId).execute();
  const { recordId, orderId } = await placeLabelOrder(db, shop, options);
  await db
    .insertInto('organization_settings')
    .values({
      organization_id: shop.organizationId,
      business_profile: JSON.stringify(options.shipFrom === false ? {} : { shipFromAddress: SHIP_FROM }),
      created_at: clock.now(),
      updated_at: clock.now(),
    })
    .execute();
  const tower = await createBoxPreset(
    db,
    shop.ctx(),
    createBoxPresetInputSchema.parse({
      name: 'Tower',
      innerLengthMm: 100,
      innerWidthMm: 100,
      innerHeightMm: 250,
      tareWeightGrams: 100,
    }),
  );
  const shopOf = async (placed: { recordId: string; orderId: string }): Promise<Shop> => {
    const lines = await db
      .selectFrom('sales_record_lines')
      .select(['id', 'variant_id'])
      .where('sales_record_id', '=', placed.recordId)
      .execute();
    return {
      shop,
      ...placed,
      variantLineId: lines.find((line) => line.variant_id !== null)!.id,
      itemLineId: lines.find((line) => line.variant_id === null)!.id,
      towerId: tower.id,
      another: async () => shopOf(await placeLabelOrder(db, shop, options)),
    };
  };
  return shopOf({ recordId, orderId });
}

async function placeLabelOrder(
  db: Kysely<Database>,
  shop: OrderTenant,
  options: { shipTo?: boolean; collectedShippingInCents?: number },
): Promise<{ recordId: string; orderId: string }> {
  const order = await createLegacyOrder(
    db,
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
  const { sales_record_id: recordId } = await db
    .selectFrom('orders')
    .select('sales_record_id')
    .where('id', '=', order.id)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('sales_records')
    .set((eb) => ({
      shipping_in_cents: options.collectedShippingInCents ?? 1000,
      total_in_cents: eb('total_in_cents', '+', options.collectedShippingInCents ?? 1000),
      shipping_address: options.shipTo === false ? null : JSON.stringify(SHIP_TO),
    }))
    .where('id', '=', recordId)
    .execute();
  return { recordId, orderId: order.id };
}

/** Both lines of the order with all their units: the variant line's 3 and the item line's 2. */
export function allLines(s: Shop): { lineId: string; quantity: number }[] {
  return [
    { lineId: s.variantLineId, quantity: 3 },
    { lineId: s.itemLineId, quantity: 2 },
  ];
}

/** The whole order's selection, unparsed: Tower preset at 1400 g, sandbox GROUND; `changes` over it. */
export function labelSelection(s: Shop, changes: Record<string, unknown> = {}) {
  return Object.assign(
    {
      orderId: s.orderId,
      lines: allLines(s),
      package: { boxPresetId: s.towerId, loadedWeightGrams: 1400 },
      carrier: 'sandbox',
      service: 'GROUND',
    },
    changes,
  );
}

/**
 * The purchase body as a client sends it: `labelSelection(s, changes)`, the
 * fingerprint its quote answered (`sqf1_none` when it answered none) and
 * `extra`, given as fields or made from the quote.
 */
export async function purchaseBodyFor(
  db: Kysely<Database>,
  s: Shop,
  carrier: CarrierProvider,
  changes: Record<string, unknown> = {},
  extra: Record<string, unknown> | ((quote: ShippingLabelQuote) => Record<string, unknown>) = {},
): Promise<PurchaseShippingLabelInput> {
  const selection = labelSelection(s, changes);
  const quote = await quoteShippingLabel(
    db,
    { organizationId: s.shop.organizationId, carrier },
    shippingLabelQuoteInputSchema.parse(selection),
  );
  return purchaseShippingLabelInputSchema.parse({
    ...selection,
    selectionQuoteFingerprint: quote.selectionQuoteFingerprint ?? 'sqf1_none',
    ...(typeof extra === 'function' ? extra(quote) : extra),
  });
}

/** The organization's sandbox carrier account: its balance and how many labels it sold. */
export function sandboxAccount(db: Kysely<Database>, organizationId: string) {
  return db
    .selectFrom('sandbox_carrier_accounts')
    .select(['balance_in_cents', 'purchase_count'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
}

/** The error codes of the rejected calls of a `Promise.allSettled`, in order. */
export function codesOf(results: PromiseSettledResult<unknown>[]): ErrorCode[] {
  return results.flatMap((result) =>
    result.status === 'rejected' ? [(result.reason as AppError).code] : [],
  );
}

/** How many calls of a `Promise.allSettled` succeeded. */
export function winsOf(results: PromiseSettledResult<unknown>[]): number {
  return results.filter((result) => result.status === 'fulfilled').length;
}

/** The error a call was refused with; fails the test when the call succeeded. */
export async function rejection(
  promise: Promise<unknown>,
): Promise<AppError & { details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as AppError & { details: Record<string, unknown> };
  }
  throw new Error('expected a rejection');
}
