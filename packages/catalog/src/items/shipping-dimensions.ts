import { z } from 'zod';

/**
 * Catalog shipping dimensions (docs/catalog.md "Shipping dimensions"): on items and
 * variants, in merchant bodies and merchant reads only, never on public reads.
 * A unit's dimensions come from its variant when it has all four, else its
 * item's (the recommendation decides; nothing here mixes them).
 */
/** The largest value of the `integer` columns. */
const MAX_INT4 = 2_147_483_647;

export const SHIPPING_DIMENSION_COLUMNS = {
  shippingWeightGrams: 'shipping_weight_grams',
  shippingLengthMm: 'shipping_length_mm',
  shippingWidthMm: 'shipping_width_mm',
  shippingHeightMm: 'shipping_height_mm',
} as const;
export type ShippingDimensionField = keyof typeof SHIPPING_DIMENSION_COLUMNS;
export const SHIPPING_DIMENSION_FIELDS = Object.keys(SHIPPING_DIMENSION_COLUMNS) as ShippingDimensionField[];

type ShippingDimensionColumn = (typeof SHIPPING_DIMENSION_COLUMNS)[ShippingDimensionField];
export type ShippingDimensionRow = Record<ShippingDimensionColumn, number | null>;
export type ShippingDimensions = Record<ShippingDimensionField, number | null>;

const positive = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_INT4)
    .nullable()
    .describe(`${what}: an integer of at least 1, or null for unknown`);

/** The four body fields, each optional (absent: unchanged on PATCH, null on create). */
export const shippingDimensionsInputShape = {
  shippingWeightGrams: positive('Shipping weight of one unit in grams').optional(),
  shippingLengthMm: positive('Shipping length of one unit in millimetres').optional(),
  shippingWidthMm: positive('Shipping width of one unit in millimetres').optional(),
  shippingHeightMm: positive('Shipping height of one unit in millimetres').optional(),
};

/** The four read fields (merchant reads only). */
export const shippingDimensionsReadShape = {
  shippingWeightGrams: z.number().int().nullable().describe('Grams per unit; null when unknown'),
  shippingLengthMm: z.number().int().nullable().describe('Millimetres; null when unknown'),
  shippingWidthMm: z.number().int().nullable().describe('Millimetres; null when unknown'),
  shippingHeightMm: z.number().int().nullable().describe('Millimetres; null when unknown'),
};

export function shippingDimensionsOf(row: ShippingDimensionRow): ShippingDimensions {
  return {
    shippingWeightGrams: row.shipping_weight_grams,
    shippingLengthMm: row.shipping_length_mm,
    shippingWidthMm: row.shipping_width_mm,
    shippingHeightMm: row.shipping_height_mm,
  };
}

/** The columns of a create: every field sent, null for the others. */
export function shippingDimensionValues(input: Partial<ShippingDimensions>): ShippingDimensionRow {
  return {
    shipping_weight_grams: input.shippingWeightGrams ?? null,
    shipping_length_mm: input.shippingLengthMm ?? null,
    shipping_width_mm: input.shippingWidthMm ?? null,
    shipping_height_mm: input.shippingHeightMm ?? null,
  };
}

/** The columns a PATCH changes (fields sent with another value), and their API names for the audit. */
export function changedShippingDimensions(
  changes: Partial<ShippingDimensions>,
  row: ShippingDimensionRow,
): { set: Partial<ShippingDimensionRow>; fields: ShippingDimensionField[] } {
  const set: Partial<ShippingDimensionRow> = {};
  const fields: ShippingDimensionField[] = [];
  for (const field of SHIPPING_DIMENSION_FIELDS) {
    const next = changes[field];
    const column = SHIPPING_DIMENSION_COLUMNS[field];
    if (next === undefined || next === row[column]) continue;
    set[column] = next;
    fields.push(field);
  }
  return { set, fields };
}
