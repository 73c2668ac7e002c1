import { booleanQuerySchema, cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';
import { ITEM_TYPES } from './item-read.ts';
import { shippingDimensionsInputShape } from './shipping-dimensions.ts';

/**
 * Inputs of the item routes (docs/catalog.md "Items and variants"). Each
 * field is declared once and shared by create and update, so
 * the two bodies cannot drift; the update schema has no defaults, so a field
 * not sent is never rewritten.
 */

/** The largest value of an `integer` column: amounts and positions are stored as int4. */
export const MAX_INT4 = 2_147_483_647;
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 50;
export const MAX_DESCRIPTION_LENGTH = 10_000;
export const MAX_METAFIELD_KEYS = 100;
export const MAX_METAFIELD_KEY_LENGTH = 100;
/** Serialized JSON of the merchant's metafields, in UTF-8 bytes. */
export const MAX_METAFIELDS_BYTES = 16_384;
export const MAX_REORDER_IDS = 10_000;
export const MAX_RESOLVE_IDS = 100;
export const MAX_SEARCH_LENGTH = 200;
/** Keys of `metafields` with this prefix are the service's own (`__archivedFromStatus`). */
export const RESERVED_METAFIELD_PREFIX = '__';
export const ARCHIVED_FROM_STATUS_KEY = '__archivedFromStatus';

export const WRITABLE_ITEM_STATUSES = ['ACTIVE', 'DRAFT'] as const;

export const itemIdSchema = z.string().min(1).max(64).describe('Item id (`itm_…`)');

export const itemSlugSchema = z
  .string()
  .max(100, 'must be at most 100 characters')
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    'must be lowercase letters and digits in words joined by single hyphens',
  )
  .describe(
    'Unique per organization: lowercase letters and digits, words joined by single hyphens, at most 100',
  );

const nameSchema = z.string().trim().min(1).max(200).describe('1 to 200 characters, trimmed');
const itemTypeSchema = z.enum(ITEM_TYPES);
const writableStatusSchema = z
  .enum(WRITABLE_ITEM_STATUSES, {
    error: 'must be ACTIVE or DRAFT; archive an item with POST /merchant/items/{id}/archive',
  })
  .describe('`ACTIVE` or `DRAFT`. `ARCHIVED` is reached only through the archive route');
const descriptionSchema = z
  .string()
  .max(MAX_DESCRIPTION_LENGTH)
  .nullable()
  .describe('At most 10,000 characters; null clears it');

const tagsSchema = z
  .array(z.string().trim().min(1).max(MAX_TAG_LENGTH))
  .max(MAX_TAGS)
  .transform((tags) => [...new Set(tags)])
  .describe('At most 50 tags of 1 to 50 characters, each trimmed; duplicates are stored once (first kept)');

export const amountInCentsSchema = z.number().int().min(0).max(MAX_INT4);
const priceSchema = amountInCentsSchema
  .nullable()
  .describe('Base price in cents; null when the item has none');
export const sortOrderSchema = z
  .number()
  .int()
  .min(-MAX_INT4)
  .max(MAX_INT4)
  .describe('Position in the merchant order (ascending); ties go newest first');

/**
 * Why a set of the merchant's metafields is too large, or null: at most
 * MAX_METAFIELD_KEYS keys and MAX_METAFIELDS_BYTES of JSON. Checked on the
 * request and again on the merged result of a PATCH.
 */
export function metafieldsSizeProblem(metafields: Record<string, unknown>): string | null {
  if (Object.keys(metafields).length > MAX_METAFIELD_KEYS)
    return `must have at most ${MAX_METAFIELD_KEYS} keys`;
  if (Buffer.byteLength(JSON.stringify(metafields), 'utf8') > MAX_METAFIELDS_BYTES) {
    return `must be at most ${MAX_METAFIELDS_BYTES} bytes of JSON`;
  }
  return null;
}

const metafieldsRecordSchema = z
  .record(z.string().min(1).max(MAX_METAFIELD_KEY_LENGTH), z.unknown())
  .superRefine((metafields, ctx) => {
    const problem = metafieldsSizeProblem(metafields);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
    for (const key of Object.keys(metafields)) {
      if (key.startsWith(RESERVED_METAFIELD_PREFIX)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'keys starting with __ are reserved for the service',
        });
      }
    }
  });

export const metafieldsSchema = metafieldsRecordSchema.describe(
  'Free-form JSON object for the merchant: at most 100 keys of 1 to 100 characters and 16,384 bytes of JSON. Keys starting with `__` are reserved (400). A key whose value is `null` is not stored',
);

export const metafieldsPatchSchema = metafieldsRecordSchema.describe(
  "Merged into the item's metafields key by key, as Stripe and Shopify treat metadata: a key sent with a value sets it, a key sent as `null` deletes it, a key not sent is kept. At most 100 keys of 1 to 100 characters and 16,384 bytes of JSON, in the request and in the merged result (400). Keys starting with `__` are reserved (400); the service's own are kept",
);

/** The most a low-stock threshold can be (more stock than any merchant holds of one variant). */
export const MAX_LOW_STOCK_THRESHOLD = 1_000_000;

export const lowStockThresholdSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_LOW_STOCK_THRESHOLD)
  .nullable()
  .describe(
    "Stock at or under which a variant of the item is low: a `stock.low` webhook leaves when a variant's stock crosses it from above. An integer from 0 to 1,000,000, or null to use the store's `notifications.lowStockThreshold` (absent on create: null; on PATCH: unchanged)",
  );

export const createItemInputSchema = z.strictObject({
  slug: itemSlugSchema,
  name: nameSchema,
  type: itemTypeSchema,
  status: writableStatusSchema.default('DRAFT'),
  description: descriptionSchema.optional(),
  tags: tagsSchema.optional(),
  priceInCents: priceSchema.optional(),
  metafields: metafieldsSchema.optional(),
  sortOrder: sortOrderSchema
    .optional()
    .describe('Defaults to 0: a new item comes first (newest first among equal sortOrder) until reordered'),
  ...shippingDimensionsInputShape,
  lowStockThreshold: lowStockThresholdSchema.optional(),
});
export type CreateItemInput = z.output<typeof createItemInputSchema>;

export const updateItemChangesSchema = z.strictObject({
  slug: itemSlugSchema.optional(),
  name: nameSchema.optional(),
  type: itemTypeSchema.optional(),
  status: writableStatusSchema.optional(),
  description: descriptionSchema.optional(),
  tags: tagsSchema.optional(),
  priceInCents: priceSchema.optional(),
  metafields: metafieldsPatchSchema.optional(),
  sortOrder: sortOrderSchema.optional(),
  ...shippingDimensionsInputShape,
  lowStockThreshold: lowStockThresholdSchema.optional(),
});
export type UpdateItemChanges = z.output<typeof updateItemChangesSchema>;

/** The PATCH input: the path's `id` beside the body's changes. */
export const updateItemInputSchema = updateItemChangesSchema.extend({ id: itemIdSchema });

export const itemIdInputSchema = z.object({ id: itemIdSchema });
export const itemSlugInputSchema = z.object({ slug: z.string().min(1).max(200) });

const searchSchema = z
  .string()
  .trim()
  .max(MAX_SEARCH_LENGTH)
  .describe(
    'Case-insensitive substring of the name, the description or a tag (at most 200 characters; `%`, `_` and `\\` match themselves). Empty means no filter',
  );

export const itemListQuerySchema = z.object({
  search: searchSchema.optional(),
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The `nextCursor` of the previous page (the id of its last item)'),
  type: itemTypeSchema.optional(),
  status: z
    .enum(['ACTIVE', 'DRAFT', 'ARCHIVED'])
    .optional()
    .describe('`ARCHIVED` lists only archived (soft-deleted) items, whatever `archived` says'),
  archived: booleanQuerySchema
    .optional()
    .describe('Archived items are hidden unless `true` (true/1/yes, false/0/no, case-insensitive)'),
  compositionCandidate: booleanQuerySchema
    .optional()
    .describe(
      '`true`: only items that are not a package or kit (no components of their own), which can become components; `false`: only packages and kits',
    ),
});
export type ItemListQuery = z.output<typeof itemListQuerySchema>;

export const reorderItemsInputSchema = z.strictObject({
  orderedIds: z
    .array(itemIdSchema)
    .max(MAX_REORDER_IDS)
    .describe(
      'Every non-archived item of the organization, each once, in the new order (at most 10,000). sortOrder becomes the index',
    ),
});
export type ReorderItemsInput = z.output<typeof reorderItemsInputSchema>;

export const reorderItemsResultSchema = z
  .object({
    data: z.array(z.object({ id: z.string(), sortOrder: z.number().int() })),
  })
  .meta({ id: 'ItemOrder' });
export type ReorderItemsResult = z.output<typeof reorderItemsResultSchema>;

export const publicItemListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema
    .optional()
    .describe('The id of the last item of the previous page (public lists are flat arrays)'),
  search: searchSchema.optional(),
  type: itemTypeSchema.optional(),
  collection: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'A collection slug: only items of that collection. A collection that is unknown, DRAFT or archived holds no items publicly (empty list)',
    ),
});
export type PublicItemListQuery = z.output<typeof publicItemListQuerySchema>;

export const resolveItemsInputSchema = z.strictObject({
  ids: z
    .array(itemIdSchema)
    .min(1)
    .max(MAX_RESOLVE_IDS)
    .describe('1 to 100 item ids (a saved cart); duplicates are answered once'),
});
export type ResolveItemsInput = z.output<typeof resolveItemsInputSchema>;
