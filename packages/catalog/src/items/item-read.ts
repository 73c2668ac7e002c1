import type { Item } from '@commerce/db';
import { z } from 'zod';
import type { ItemDecorations } from '../decorations/decorate-items.ts';
import {
  SHIPPING_DIMENSION_FIELDS,
  shippingDimensionsOf,
  shippingDimensionsReadShape,
} from './shipping-dimensions.ts';

export const ITEM_TYPES = ['RENTAL', 'SALE', 'SERVICE'] as const;
export const ITEM_STATUSES = ['ACTIVE', 'DRAFT', 'ARCHIVED'] as const;

/** The item as merchant and public reads return it: its own fields and the list decorations. */
export const itemSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    type: z.enum(ITEM_TYPES),
    status: z.enum(ITEM_STATUSES),
    sortOrder: z.number().int(),
    priceInCents: z.number().int().nullable().describe('The base price; null when the item has none'),
    metafields: z
      .record(z.string(), z.unknown())
      .describe('Free-form merchant data; `__archivedFromStatus` holds the status before archiving'),
    archivedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    salePriceInCents: z
      .number()
      .int()
      .nullable()
      .describe('The lowest price a shopper pays today across non-archived variants; null when none is set'),
    ratingAverage: z.number().nullable().describe('Mean rating of published reviews, null when none'),
    ratingCount: z.number().int().describe('Number of published reviews'),
    collectionIds: z.array(z.string()).describe('Collections holding the item, in collection order'),
    ...shippingDimensionsReadShape,
    lowStockThreshold: z
      .number()
      .int()
      .nullable()
      .describe(
        "Stock at or under which a variant of the item is low (`stock.low` webhook); null: the store's `notifications.lowStockThreshold` applies",
      ),
  })
  .meta({ id: 'Item' });
export type ItemRead = z.infer<typeof itemSchema>;

/**
 * The item as public reads return it: the same fields, always `ACTIVE` and
 * unarchived, with the service's reserved `__` metafields, the shipping
 * dimensions and the low-stock threshold (merchant reads only) removed.
 */
export const publicItemSchema = itemSchema
  .omit({
    shippingWeightGrams: true,
    shippingLengthMm: true,
    shippingWidthMm: true,
    shippingHeightMm: true,
    lowStockThreshold: true,
  })
  .extend({
    metafields: z
      .record(z.string(), z.unknown())
      .describe(
        "Free-form merchant data; keys starting with `__` (the service's own) are never shown publicly",
      ),
  })
  .meta({ id: 'PublicItem' });

/** A variant as a shopper sees it: what to show and to put in a cart, never the stock count. */
export const publicVariantSchema = z
  .object({
    id: z.string(),
    sku: z.string().nullable(),
    name: z.string(),
    options: z.record(z.string(), z.string()),
    priceInCents: z.number().int().nullable(),
    salePriceInCents: z.number().int().nullable(),
    inStock: z.boolean().describe('True when stock is not tracked or above zero'),
  })
  .meta({ id: 'PublicVariant' });
export type PublicVariantRead = z.infer<typeof publicVariantSchema>;

/** One storefront item: the public item with its non-archived variants, in the merchant's order. */
export const publicItemDetailSchema = publicItemSchema
  .extend({ variants: z.array(publicVariantSchema) })
  .meta({ id: 'PublicItemDetail' });
export type PublicItemDetailRead = z.infer<typeof publicItemDetailSchema>;
export type PublicItemRead = z.infer<typeof publicItemSchema>;

/** An item read as shoppers see it: no shipping dimensions, no low-stock threshold, no reserved `__` metafields. */
export function toPublicItemRead(read: ItemRead): PublicItemRead {
  const shown: Record<string, unknown> = { ...read, metafields: publicMetafields(read.metafields) };
  for (const field of SHIPPING_DIMENSION_FIELDS) delete shown[field];
  delete shown.lowStockThreshold;
  return shown as PublicItemRead;
}

/** Metafields without the service's reserved keys (`__archivedFromStatus` …), as shoppers see them. */
export function publicMetafields(metafields: Record<string, unknown>): Record<string, unknown> {
  let hasReserved = false;
  for (const key of Object.keys(metafields)) if (key.startsWith('__')) hasReserved = true;
  if (!hasReserved) return metafields;
  return Object.fromEntries(Object.entries(metafields).filter(([key]) => !key.startsWith('__')));
}

/**
 * An item row as reads load it: every column but `search_text`, which only
 * the search predicate needs (it repeats the description, up to 10,000 characters).
 */
export type ItemRow = Omit<Item, 'search_text'>;
/**
 * An item row as public reads load it (`PUBLIC_ITEM_COLUMNS`): no merchant-only column (the
 * low-stock threshold, the shipping dimensions).
 */
export type PublicItemRow = Omit<ItemRow, MerchantOnlyColumn>;

type MerchantOnlyColumn =
  | 'low_stock_threshold'
  | 'shipping_weight_grams'
  | 'shipping_length_mm'
  | 'shipping_width_mm'
  | 'shipping_height_mm';

/**
 * The columns public reads load: the merchant's (`ITEM_COLUMNS`) but the merchant-only ones (the
 * shipping dimensions, the low-stock threshold), which no public answer shows. The bench's bare
 * server runs the storefront statements' exact text (bench/bare-sql.ts; `bench-sql.test.ts`).
 */
export const PUBLIC_ITEM_COLUMNS = [
  'items.organization_id',
  'items.id',
  'items.slug',
  'items.name',
  'items.description',
  'items.tags',
  'items.type',
  'items.status',
  'items.sort_order',
  'items.price_in_cents',
  'items.metafields',
  'items.archived_at',
  'items.created_at',
  'items.updated_at',
] as const satisfies readonly `items.${keyof PublicItemRow}`[];

export const ITEM_COLUMNS = [
  ...PUBLIC_ITEM_COLUMNS,
  'items.shipping_weight_grams',
  'items.shipping_length_mm',
  'items.shipping_width_mm',
  'items.shipping_height_mm',
  'items.low_stock_threshold',
] as const satisfies readonly `items.${Exclude<keyof Item, 'search_text'>}`[];

/**
 * An item row with or without the merchant-only columns (public reads do not load them, and their
 * read drops those fields anyway: `toPublicItemRead`).
 */
export function toItemRead(
  item: PublicItemRow & Partial<Pick<ItemRow, MerchantOnlyColumn>>,
  decorations: ItemDecorations,
): ItemRead {
  return {
    id: item.id,
    slug: item.slug,
    name: item.name,
    description: item.description,
    tags: item.tags,
    type: item.type,
    status: item.status,
    sortOrder: item.sort_order,
    priceInCents: item.price_in_cents,
    metafields: item.metafields,
    archivedAt: item.archived_at?.toISOString() ?? null,
    createdAt: item.created_at.toISOString(),
    updatedAt: item.updated_at.toISOString(),
    ...decorations,
    ...shippingDimensionsOf({
      shipping_weight_grams: item.shipping_weight_grams ?? null,
      shipping_length_mm: item.shipping_length_mm ?? null,
      shipping_width_mm: item.shipping_width_mm ?? null,
      shipping_height_mm: item.shipping_height_mm ?? null,
    }),
    lowStockThreshold: item.low_stock_threshold ?? null,
  };
}
