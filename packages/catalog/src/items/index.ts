export * from './archive-item.ts';
export type { ItemWriteContext } from './context.ts';
export * from './create-item.ts';
export { getItem, getItemBySlug } from './get-item.ts';
export * from './get-public-item.ts';
export * from './item-read.ts';
export * from './list-items.ts';
export * from './list-public-items.ts';
export * from './reorder-items.ts';
export * from './resolve-public-items.ts';
export {
  type CreateItemInput,
  createItemInputSchema,
  type ItemListQuery,
  itemIdInputSchema,
  itemListQuerySchema,
  itemSlugInputSchema,
  type PublicItemListQuery,
  publicItemListQuerySchema,
  type ReorderItemsInput,
  type ReorderItemsResult,
  type ResolveItemsInput,
  reorderItemsInputSchema,
  reorderItemsResultSchema,
  resolveItemsInputSchema,
  type UpdateItemChanges,
  updateItemChangesSchema,
  updateItemInputSchema,
} from './schemas.ts';
export * from './update-item.ts';
