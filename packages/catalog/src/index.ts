export { addCollectionItems } from './collections/add-collection-items.ts';
export { archiveCollection, restoreCollection } from './collections/archive-collection.ts';
export { createCollection } from './collections/create-collection.ts';
export { getCollection } from './collections/get-collection.ts';
export { listCollectionItems } from './collections/list-collection-items.ts';
export { listCollections } from './collections/list-collections.ts';
export {
  getPublicCollection,
  listPublicCollectionItems,
  listPublicCollections,
} from './collections/public-collections.ts';
export { removeCollectionItem } from './collections/remove-collection-item.ts';
export { reorderCollectionItems } from './collections/reorder-collection-items.ts';
export { reorderCollections } from './collections/reorder-collections.ts';
export {
  addCollectionItemsInputSchema,
  type CollectionContext,
  collectionActionInputSchema,
  collectionIdInputSchema,
  collectionItemOrderSchema,
  collectionItemRemovalSchema,
  collectionItemsAddedSchema,
  collectionItemsQuerySchema,
  collectionListQuerySchema,
  collectionOrderSchema,
  collectionSchema,
  createCollectionInputSchema,
  publicCollectionItemsQuerySchema,
  publicCollectionListQuerySchema,
  publicCollectionSchema,
  publicCollectionSlugInputSchema,
  removeCollectionItemInputSchema,
  reorderCollectionItemsInputSchema,
  reorderCollectionsInputSchema,
  updateCollectionInputSchema,
} from './collections/schemas.ts';
export { updateCollection } from './collections/update-collection.ts';
export { archiveItem, restoreItem } from './items/archive-item.ts';
export type { ItemWriteContext } from './items/context.ts';
export { createItem } from './items/create-item.ts';
export { getItem, getItemBySlug } from './items/get-item.ts';
export { getPublicItem } from './items/get-public-item.ts';
export { itemSchema, publicItemDetailSchema, publicItemSchema } from './items/item-read.ts';
export { listItems } from './items/list-items.ts';
export { listPublicItems } from './items/list-public-items.ts';
export { reorderItems } from './items/reorder-items.ts';
export { resolvePublicItems } from './items/resolve-public-items.ts';
export {
  ARCHIVED_FROM_STATUS_KEY,
  createItemInputSchema,
  itemIdInputSchema,
  itemListQuerySchema,
  itemSlugInputSchema,
  metafieldsSchema,
  publicItemListQuerySchema,
  RESERVED_METAFIELD_PREFIX,
  reorderItemsInputSchema,
  reorderItemsResultSchema,
  resolveItemsInputSchema,
  sortOrderSchema,
  updateItemInputSchema,
} from './items/schemas.ts';
export { escapeLikePattern } from './items/search.ts';
export { updateItem } from './items/update-item.ts';
export { archivePage, restorePage } from './pages/archive-page.ts';
export { createPage } from './pages/create-page.ts';
export { getPage } from './pages/get-page.ts';
export { listPages } from './pages/list-pages.ts';
export { getPublicPage, listPublicPages } from './pages/public-pages.ts';
export {
  cmsPageSchema,
  cmsPageSummarySchema,
  createPageInputSchema,
  type PageContext,
  pageActionInputSchema,
  pageIdInputSchema,
  pageListQuerySchema,
  publicCmsPageSchema,
  publicCmsPageSummarySchema,
  publicPageListQuerySchema,
  publicPageSlugInputSchema,
  updatePageInputSchema,
} from './pages/schemas.ts';
export { updatePage } from './pages/update-page.ts';
export { listReviews, moderateReview } from './reviews/moderate-reviews.ts';
export { listPublicReviews, submitReview } from './reviews/public-reviews.ts';
export {
  publicReviewPageSchema,
  publicReviewQuerySchema,
  reviewListQuerySchema,
  reviewSchema,
  submitReviewInputSchema,
} from './reviews/schemas.ts';
export { archiveShippingRate, restoreShippingRate } from './shipping/archive-shipping-rate.ts';
export { archiveShippingZone, restoreShippingZone } from './shipping/archive-shipping-zone.ts';
export { createShippingRate } from './shipping/create-shipping-rate.ts';
export { createShippingZone } from './shipping/create-shipping-zone.ts';
export { getShippingRate } from './shipping/get-shipping-rate.ts';
export { getShippingZone } from './shipping/get-shipping-zone.ts';
export { listPublicShippingZones } from './shipping/list-public-shipping-zones.ts';
export { listShippingZones } from './shipping/list-shipping-zones.ts';
export {
  countryCodeSchema,
  createShippingRateInputSchema,
  createShippingZoneInputSchema,
  publicShippingZoneListQuerySchema,
  publicShippingZoneSchema,
  type ShippingWriteContext,
  shippingRateIdInputSchema,
  shippingRateReadInputSchema,
  shippingRateSchema,
  shippingZoneIdInputSchema,
  shippingZoneListQuerySchema,
  shippingZoneReadInputSchema,
  shippingZoneSchema,
  updateShippingRateInputSchema,
  updateShippingZoneInputSchema,
} from './shipping/schemas.ts';
export { updateShippingRate } from './shipping/update-shipping-rate.ts';
export { updateShippingZone } from './shipping/update-shipping-zone.ts';
export { queueBackInStockEmails } from './stock-notifications/back-in-stock.ts';
export {
  stockSubscriptionSchema,
  subscribeToStockBodySchema,
  unsubscribeBodySchema,
  unsubscribeResultSchema,
} from './stock-notifications/schemas.ts';
export { subscribeToStock } from './stock-notifications/subscribe.ts';
export { unsubscribeByToken } from './stock-notifications/unsubscribe.ts';
export { archiveVariant, restoreVariant } from './variants/archive-variant.ts';
export { createVariant } from './variants/create-variant.ts';
export { getVariant } from './variants/get-variant.ts';
export { listVariants } from './variants/list-variants.ts';
export { DEFAULT_LOW_STOCK_THRESHOLD, emitLowStockCrossings } from './variants/low-stock.ts';
export {
  createVariantInputSchema,
  updateVariantInputSchema,
  variantListQuerySchema,
  variantPathInputSchema,
  variantSchema,
} from './variants/schemas.ts';
export { updateVariant } from './variants/update-variant.ts';
