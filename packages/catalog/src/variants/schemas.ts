import { booleanQuerySchema, cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';
import { amountInCentsSchema, itemIdSchema, MAX_INT4, sortOrderSchema } from '../items/schemas.ts';
import { shippingDimensionsInputShape, shippingDimensionsReadShape } from '../items/shipping-dimensions.ts';

export const MAX_VARIANT_OPTIONS = 20;

/** A variant as merchant reads return it. */
export const variantSchema = z
  .object({
    id: z.string(),
    itemId: z.string(),
    sku: z.string().nullable().describe('Unique per organization among variants; null when none'),
    name: z.string(),
    options: z.record(z.string(), z.string()).describe('Option name to value, e.g. `{ "size": "M" }`'),
    priceInCents: z.number().int().nullable().describe("The variant's price; null when it has none"),
    salePriceInCents: z
      .number()
      .int()
      .nullable()
      .describe('The discounted price shoppers pay while set; never above priceInCents'),
    inventoryQuantity: z.number().int().nullable().describe('Units in stock; null when stock is not tracked'),
    sortOrder: z.number().int(),
    archivedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    ...shippingDimensionsReadShape,
  })
  .meta({ id: 'Variant' });
export type VariantRead = z.infer<typeof variantSchema>;

export const variantIdSchema = z.string().min(1).max(64).describe('Variant id (`var_…`)');

const skuSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .nullable()
  .describe(
    'At most 100 characters, trimmed; unique per organization among variants (archived ones included); null for none',
  );
const nameSchema = z.string().trim().min(1).max(200).describe('1 to 200 characters, trimmed');
const optionsSchema = z
  .record(z.string().min(1).max(50), z.string().trim().min(1).max(100))
  .refine((options) => Object.keys(options).length <= MAX_VARIANT_OPTIONS, {
    message: `must have at most ${MAX_VARIANT_OPTIONS} options`,
  })
  .describe('Option name (1 to 50 characters) to value (1 to 100, trimmed); at most 20 options');
const priceSchema = amountInCentsSchema.nullable();
const inventorySchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_INT4)
  .nullable()
  .describe('Units in stock (0 or more); null means stock is not tracked');

const SALE_ABOVE_PRICE = 'must not be above priceInCents';

export const createVariantBodySchema = z
  .strictObject({
    sku: skuSchema.optional(),
    name: nameSchema,
    options: optionsSchema.optional(),
    priceInCents: priceSchema.optional().describe('Price in cents; null or absent for none'),
    salePriceInCents: priceSchema.optional().describe('Discounted price in cents, at most priceInCents'),
    inventoryQuantity: inventorySchema.optional(),
    sortOrder: sortOrderSchema
      .optional()
      .describe('Position among the item’s variants (ascending; ties oldest first); defaults to 0'),
    ...shippingDimensionsInputShape,
  })
  .superRefine((input, ctx) => {
    if (
      input.salePriceInCents != null &&
      input.priceInCents != null &&
      input.salePriceInCents > input.priceInCents
    ) {
      ctx.addIssue({ code: 'custom', path: ['salePriceInCents'], message: SALE_ABOVE_PRICE });
    }
  });
export type CreateVariantInput = z.output<typeof createVariantBodySchema>;

export const createVariantInputSchema = createVariantBodySchema.safeExtend({ itemId: itemIdSchema });

export const updateVariantChangesSchema = z.strictObject({
  sku: skuSchema.optional(),
  name: nameSchema.optional(),
  options: optionsSchema.optional().describe('Replaces the options wholesale'),
  priceInCents: priceSchema.optional(),
  salePriceInCents: priceSchema.optional().describe('At most the priceInCents after the update'),
  inventoryQuantity: inventorySchema.optional(),
  sortOrder: sortOrderSchema.optional(),
  ...shippingDimensionsInputShape,
});
export type UpdateVariantChanges = z.output<typeof updateVariantChangesSchema>;

export const updateVariantInputSchema = updateVariantChangesSchema.extend({
  itemId: itemIdSchema,
  variantId: variantIdSchema,
});

export const variantPathInputSchema = z.object({ itemId: itemIdSchema, variantId: variantIdSchema });

export const variantListQuerySchema = z.object({
  itemId: itemIdSchema,
  archived: booleanQuerySchema.describe(
    'Required. `false`: the non-archived variants; `true`: every variant, archived ones included (true/1/yes, false/0/no, case-insensitive)',
  ),
  limit: limitSchema,
  cursor: cursorSchema
    .optional()
    .describe('The `nextCursor` of the previous page (the id of its last variant)'),
});
export type VariantListQuery = z.output<typeof variantListQuerySchema>;

export { SALE_ABOVE_PRICE };
