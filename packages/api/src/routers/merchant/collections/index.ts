import { router } from '../../../trpc.ts';
import { addItemsProcedure } from './add-items.ts';
import { archiveProcedure } from './archive.ts';
import { createProcedure } from './create.ts';
import { getProcedure } from './get.ts';
import { itemsProcedure } from './items.ts';
import { listProcedure } from './list.ts';
import { removeItemProcedure } from './remove-item.ts';
import { reorderProcedure } from './reorder.ts';
import { reorderItemsProcedure } from './reorder-items.ts';
import { restoreProcedure } from './restore.ts';
import { updateProcedure } from './update.ts';

export const merchantCollectionsRouter = router({
  create: createProcedure,
  list: listProcedure,
  reorder: reorderProcedure,
  get: getProcedure,
  update: updateProcedure,
  archive: archiveProcedure,
  restore: restoreProcedure,
  items: itemsProcedure,
  addItems: addItemsProcedure,
  removeItem: removeItemProcedure,
  reorderItems: reorderItemsProcedure,
});
