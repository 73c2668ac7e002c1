import { booleanQuerySchema, cursorSchema, limitSchema } from '@commerce/core';
import type { AuditActor } from '@commerce/db';
import { z } from 'zod';

/** Who changes the catalog's collections, in which organization, and when. */
export interface CollectionContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
}

export const COLLECTION_STATUSES = ['ACTIVE', 'DRAFT'] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];

/** Most items one append may name. */
export const MAX_COLLECTION_ITEMS_PER_APPEND = 500;
/** Most ids one order request may carry (the whole member set, or every live collection). */
export const MAX_COLLECTION_ORDER_IDS = 10_000;

export const collectionSlugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    'must be lowercase letters and digits in groups joined by single hyphens',
  )
  .describe('Unique per organization; lowercase letters and digits, groups joined by single hyphens');

export const collectionIdSchema = z.string().min(1).max(64).describe('Collection id (`col_…`)');
const itemIdSchema = z.string().min(1).max(64).describe('Item id (`itm_…`)');

const nameSchema = z.string().trim().min(1).max(200);
const descriptionSchema = z.string().max(10_000);
const sortOrderSchema = z
  .number()
  .int()
  .min(-1_000_000)
  .max(1_000_000)
  .describe('Ascending; ties by newest first. Defaults to 0');

export const collectionSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(COLLECTION_STATUSES),
    sortOrder: z.number().int(),
    itemCount: z.number().int().describe('Items in the collection, whatever their status'),
    archivedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Collection' });
export type CollectionRead = z.infer<typeof collectionSchema>;

export const publicCollectionSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    sortOrder: z.number().int(),
    itemCount: z.number().int().describe('Items a shopper sees in the collection (ACTIVE items only)'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PublicCollection' });
export type PublicCollectionRead = z.infer<typeof publicCollectionSchema>;

export const createCollectionInputSchema = z.strictObject({
  name: nameSchema,
  slug: collectionSlugSchema,
  status: z.enum(COLLECTION_STATUSES),
  description: descriptionSchema.nullable().optional(),
  sortOrder: sortOrderSchema.optional(),
});
export type CreateCollectionInput = z.infer<typeof createCollectionInputSchema>;

export const updateCollectionChangesSchema = z.strictObject({
  name: nameSchema.optional(),
  slug: collectionSlugSchema.optional(),
  status: z.enum(COLLECTION_STATUSES).optional(),
  description: descriptionSchema.nullable().optional().describe('`null` clears it'),
  sortOrder: sortOrderSchema.optional(),
});
export type UpdateCollectionChanges = z.infer<typeof updateCollectionChangesSchema>;

/** The PATCH input: the path's `id` beside the body's changes. */
export const updateCollectionInputSchema = updateCollectionChangesSchema.extend({ id: collectionIdSchema });

/** A read's path input (query parameters it does not know are ignored). */
export const collectionIdInputSchema = z.object({ id: collectionIdSchema });
/** A body-less action's input: the path's id, and an empty body. */
export const collectionActionInputSchema = z.strictObject({ id: collectionIdSchema });

export const collectionListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The `nextCursor` of the previous page (a collection id)'),
  archived: booleanQuerySchema
    .optional()
    .describe('`true` includes archived collections; hidden by default (true/1/yes, false/0/no)'),
  status: z.enum(COLLECTION_STATUSES).optional(),
});
export type CollectionListQuery = z.output<typeof collectionListQuerySchema>;

export const reorderCollectionsInputSchema = z.strictObject({
  orderedIds: z
    .array(collectionIdSchema)
    .max(MAX_COLLECTION_ORDER_IDS)
    .describe('Every non-archived collection exactly once, in the new order'),
});

export const collectionOrderSchema = z
  .object({ orderedIds: z.array(z.string()).describe('The non-archived collections in their stored order') })
  .meta({ id: 'CollectionOrder' });
export type CollectionOrderRead = z.infer<typeof collectionOrderSchema>;

export const addCollectionItemsInputSchema = z.strictObject({
  id: collectionIdSchema,
  itemIds: z
    .array(itemIdSchema)
    .min(1)
    .max(MAX_COLLECTION_ITEMS_PER_APPEND)
    .describe('Items to append, in this order; a repeated id counts once'),
});

export const collectionItemsAddedSchema = z
  .object({
    addedItemIds: z.array(z.string()).describe('Appended at the end, in the order sent'),
    skippedItemIds: z.array(z.string()).describe('Already in the collection: left where they were'),
    itemCount: z.number().int().describe('Items in the collection after the change'),
  })
  .meta({ id: 'CollectionItemsAdded' });
export type CollectionItemsAdded = z.infer<typeof collectionItemsAddedSchema>;

export const removeCollectionItemInputSchema = z.strictObject({
  id: collectionIdSchema,
  itemId: itemIdSchema,
});

export const collectionItemRemovalSchema = z
  .object({ removed: z.union([z.literal(0), z.literal(1)]).describe('1 when the item was a member') })
  .meta({ id: 'CollectionItemRemoval' });

export const reorderCollectionItemsInputSchema = z.strictObject({
  id: collectionIdSchema,
  itemIds: z
    .array(itemIdSchema)
    .max(MAX_COLLECTION_ORDER_IDS)
    .describe('Every item of the collection exactly once, in the new order (the complete current set)'),
});

export const collectionItemOrderSchema = z
  .object({ itemIds: z.array(z.string()).describe('The members in their stored order') })
  .meta({ id: 'CollectionItemOrder' });
export type CollectionItemOrderRead = z.infer<typeof collectionItemOrderSchema>;

export const collectionItemsQuerySchema = z.object({
  id: collectionIdSchema,
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The `nextCursor` of the previous page (an item id)'),
});

export const publicCollectionSlugInputSchema = z.object({
  slug: z.string().min(1).max(200).describe('The collection slug'),
});

export const publicCollectionListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last collection of the previous page'),
});
export type PublicCollectionListQuery = z.output<typeof publicCollectionListQuerySchema>;

export const publicCollectionItemsQuerySchema = publicCollectionSlugInputSchema.extend({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last item of the previous page'),
});
