export { archiveVariant, restoreVariant } from './archive-variant.ts';
export * from './create-variant.ts';
export * from './get-variant.ts';
export * from './list-variants.ts';
export {
  type CreateVariantInput,
  createVariantInputSchema,
  type UpdateVariantChanges,
  updateVariantInputSchema,
  type VariantListQuery,
  type VariantRead,
  variantListQuerySchema,
  variantPathInputSchema,
  variantSchema,
} from './schemas.ts';
export * from './update-variant.ts';
export { toVariantRead } from './variant-read.ts';
