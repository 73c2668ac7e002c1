export * from './archive-item.ts';
export { canonicalJson, type ItemWriteContext } from './context.ts';
export * from './create-item.ts';
export { getItem, getItemBySlug } from './get-item.ts';
export * from './get-public-item.ts';
export * from './item-read.ts';
export * from './list-items.ts';
export * from './list-public-items.ts';
export * from './reorder-items.ts';
export * from './resolve-public-items.ts';
export {
  ARCHIVED_FROM_STATUS_KEY,
  type CreateItemInput,
  createItemInputSchema,
  type ItemListQuery,
  itemIdInputSchema,
  itemListQuerySchema,
  itemSlugInputSchema,
  metafieldsSchema,
  type PublicItemListQuery,
  publicItemListQuerySchema,
  RESERVED_METAFIELD_PREFIX,
  type ReorderItemsInput,
  type ReorderItemsResult,
  type ResolveItemsInput,
  reorderItemsInputSchema,
  reorderItemsResultSchema,
  resolveItemsInputSchema,
  sortOrderSchema,
  type UpdateItemChanges,
  updateItemChangesSchema,
  updateItemInputSchema,
} from './schemas.ts';
export { escapeLikePattern } from './search.ts';
export * from './shipping-dimensions.ts';
export * from './update-item.ts';
