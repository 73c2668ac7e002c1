import { router } from '../../../trpc.ts';
import { archiveProcedure } from './archive.ts';
import { archiveVariantProcedure } from './archive-variant.ts';
import { createProcedure } from './create.ts';
import { createVariantProcedure } from './create-variant.ts';
import { getProcedure } from './get.ts';
import { getBySlugProcedure } from './get-by-slug.ts';
import { getVariantProcedure } from './get-variant.ts';
import { listProcedure } from './list.ts';
import { listVariantsProcedure } from './list-variants.ts';
import { reorderProcedure } from './reorder.ts';
import { restoreProcedure } from './restore.ts';
import { restoreVariantProcedure } from './restore-variant.ts';
import { updateProcedure } from './update.ts';
import { updateVariantProcedure } from './update-variant.ts';

export const merchantItemsRouter = router({
  list: listProcedure,
  create: createProcedure,
  reorder: reorderProcedure,
  getBySlug: getBySlugProcedure,
  get: getProcedure,
  update: updateProcedure,
  archive: archiveProcedure,
  restore: restoreProcedure,
  listVariants: listVariantsProcedure,
  createVariant: createVariantProcedure,
  getVariant: getVariantProcedure,
  updateVariant: updateVariantProcedure,
  archiveVariant: archiveVariantProcedure,
  restoreVariant: restoreVariantProcedure,
});
