import { AppError, type ValidationIssue } from '@commerce/core';
import type { CheckoutLineType, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { lineTypeOf, RENTAL_LINE_MESSAGE } from '../sales-records/line-types.ts';
import type { CheckoutLineInput, ShippingOption } from './schemas.ts';

/** A cart line priced from the catalog. */
export interface PricedLine {
  /** PRODUCT (stock, shipping, returns) or SERVICE (no shipping, not returnable). */
  type: CheckoutLineType;
  itemId: string;
  variantId: string | null;
  name: string;
  quantity: number;
  unitPriceInCents: number;
  /** The index in the client's cart of the first line merged into this one: `lines.N` in issues and shortages. */
  position: number;
}

/** A cart line to price, with its index in the client's cart when it is a stored line (else its place in `lines`). */
export type CartLineInput = CheckoutLineInput & { position?: number };

export interface ShippingChoice {
  /** Whether the cart needs shipping: it has a PRODUCT line and the store ships (an active rate in an active zone). */
  required: boolean;
  options: ShippingOption[];
  selected: ShippingOption | null;
}

export interface Quote {
  lines: PricedLine[];
  subtotalInCents: number;
  shipping: ShippingChoice;
  shippingInCents: number;
}

/**
 * Lines naming the same item and variant become one, at the place of the first; the client's index of
 * the first is kept for issues (a stored line's `position`, else its place in `lines`).
 */
export function mergeLines(lines: readonly CartLineInput[]): (CheckoutLineInput & { index: number })[] {
  const merged = new Map<string, CheckoutLineInput & { index: number }>();
  lines.forEach((line, place) => {
    const index = line.position ?? place;
    const key = `${line.itemId}\u0000${line.variantId ?? ''}`;
    const existing = merged.get(key);
    if (existing) existing.quantity += line.quantity;
    else
      merged.set(key, {
        itemId: line.itemId,
        variantId: line.variantId ?? null,
        quantity: line.quantity,
        index,
      });
  });
  return [...merged.values()];
}

/**
 * Prices cart lines from the catalog, never from the client: each item must
 * be ACTIVE and unarchived, and not a RENTAL; a variant must be a
 * non-archived variant of its item, and is required when the item has
 * variants. The unit price is the variant's sale price, else its price, else
 * the item's price; a line with none of them cannot be sold. The line's type
 * follows the item's (`lineTypeOf`). Every bad line is reported (400).
 */
export async function priceLines(
  db: Kysely<Database>,
  organizationId: string,
  input: readonly CartLineInput[],
): Promise<PricedLine[]> {
  const lines = mergeLines(input);
  const itemIds = [...new Set(lines.map((line) => line.itemId))];
  const [items, variants] = await Promise.all([
    db
      .selectFrom('items')
      .select(['id', 'name', 'type', 'price_in_cents'])
      .where('organization_id', '=', organizationId)
      .where('id', 'in', itemIds)
      .where('status', '=', 'ACTIVE')
      .where('archived_at', 'is', null)
      .execute(),
    db
      .selectFrom('variants')
      .select(['id', 'item_id', 'name', 'price_in_cents', 'sale_price_in_cents'])
      .where('organization_id', '=', organizationId)
      .where('item_id', 'in', itemIds)
      .where('archived_at', 'is', null)
      .execute(),
  ]);
  const itemById = new Map(items.map((item) => [item.id, item]));
  const variantById = new Map(variants.map((variant) => [variant.id, variant]));
  const itemsWithVariants = new Set(variants.map((variant) => variant.item_id));
  const issues: ValidationIssue[] = [];
  const priced: PricedLine[] = [];
  for (const line of lines) {
    const item = itemById.get(line.itemId);
    if (!item) {
      issues.push({ path: `lines.${line.index}.itemId`, message: 'does not name an available item' });
      continue;
    }
    const type = lineTypeOf(item.type);
    if (type === null) {
      issues.push({ path: `lines.${line.index}.itemId`, message: RENTAL_LINE_MESSAGE });
      continue;
    }
    const variant = line.variantId ? variantById.get(line.variantId) : undefined;
    if (line.variantId && variant?.item_id !== item.id) {
      issues.push({
        path: `lines.${line.index}.variantId`,
        message: 'does not name an available variant of the item',
      });
      continue;
    }
    if (!variant && itemsWithVariants.has(item.id)) {
      issues.push({ path: `lines.${line.index}.variantId`, message: 'is required: the item has variants' });
      continue;
    }
    const unitPriceInCents = variant
      ? (variant.sale_price_in_cents ?? variant.price_in_cents ?? item.price_in_cents)
      : item.price_in_cents;
    if (unitPriceInCents === null) {
      issues.push({ path: `lines.${line.index}`, message: 'has no price and cannot be bought' });
      continue;
    }
    priced.push({
      type,
      itemId: item.id,
      variantId: variant?.id ?? null,
      name: variant ? `${item.name} / ${variant.name}` : item.name,
      quantity: line.quantity,
      unitPriceInCents,
      position: line.index,
    });
  }
  if (issues.length > 0) throw AppError.validation(issues);
  return priced;
}

export function subtotalOf(lines: readonly Pick<PricedLine, 'quantity' | 'unitPriceInCents'>[]): number {
  return lines.reduce((sum, line) => sum + line.quantity * line.unitPriceInCents, 0);
}

/**
 * The store's shipping options for a destination and a subtotal: the active
 * rates of the active zones listing the country, without the rates whose
 * `minimumSubtotalInCents` the cart does not reach, in display order (zone,
 * then rate: sortOrder, name, id). Two small queries.
 */
export async function shippingOptionsFor(
  db: Kysely<Database>,
  organizationId: string,
  country: string | null,
  subtotalInCents: number,
): Promise<{ required: boolean; options: ShippingOption[] }> {
  const rows = await db
    .selectFrom('shipping_rates as r')
    .innerJoin('shipping_zones as z', (join) =>
      join.onRef('z.organization_id', '=', 'r.organization_id').onRef('z.id', '=', 'r.zone_id'),
    )
    .select([
      'r.id',
      'r.name',
      'r.price_in_cents',
      'r.minimum_subtotal_in_cents',
      'r.estimated_delivery',
      'z.name as zoneName',
      'z.countries',
    ])
    .where('r.organization_id', '=', organizationId)
    .where('r.archived_at', 'is', null)
    .where('z.archived_at', 'is', null)
    .orderBy('z.sort_order')
    .orderBy('z.name')
    .orderBy('z.id')
    .orderBy('r.sort_order')
    .orderBy('r.name')
    .orderBy('r.id')
    .execute();
  const options = rows
    .filter(
      (row) =>
        country !== null &&
        row.countries.includes(country) &&
        (row.minimum_subtotal_in_cents === null || subtotalInCents >= row.minimum_subtotal_in_cents),
    )
    .map((row) => ({
      id: row.id,
      name: row.name,
      zoneName: row.zoneName,
      priceInCents: row.price_in_cents,
      estimatedDelivery: row.estimated_delivery,
    }));
  return { required: rows.length > 0, options };
}

/**
 * The rate a quote uses: the one asked for (400 when it is not an option),
 * else the current one while it stays an option, else the cheapest option
 * (the first in display order on a tie).
 */
export function chooseShippingRate(
  options: readonly ShippingOption[],
  requestedId: string | undefined,
  currentId: string | null,
): ShippingOption | null {
  if (requestedId !== undefined) {
    const requested = options.find((option) => option.id === requestedId);
    if (!requested)
      throw AppError.validation([
        { path: 'shippingRateId', message: 'is not a shipping option for this destination and cart' },
      ]);
    return requested;
  }
  const current = options.find((option) => option.id === currentId);
  if (current) return current;
  let cheapest: ShippingOption | null = null;
  for (const option of options)
    if (!cheapest || option.priceInCents < cheapest.priceInCents) cheapest = option;
  return cheapest;
}

/**
 * Prices the lines and picks the shipping rate: the whole pre-tax quote. A
 * cart without PRODUCT lines (services only) ships nothing: no options, no
 * rate, no fee.
 */
export async function quoteCart(
  db: Kysely<Database>,
  organizationId: string,
  input: {
    lines: readonly CartLineInput[];
    country: string | null;
    requestedRateId: string | undefined;
    currentRateId: string | null;
  },
): Promise<Quote> {
  const lines = await priceLines(db, organizationId, input.lines);
  const subtotalInCents = subtotalOf(lines);
  if (!lines.some((line) => line.type === 'PRODUCT')) {
    if (input.requestedRateId !== undefined) chooseShippingRate([], input.requestedRateId, null);
    return {
      lines,
      subtotalInCents,
      shipping: { required: false, options: [], selected: null },
      shippingInCents: 0,
    };
  }
  const { required, options } = await shippingOptionsFor(db, organizationId, input.country, subtotalInCents);
  const selected = chooseShippingRate(options, input.requestedRateId, input.currentRateId);
  return {
    lines,
    subtotalInCents,
    shipping: { required, options, selected },
    shippingInCents: selected?.priceInCents ?? 0,
  };
}
