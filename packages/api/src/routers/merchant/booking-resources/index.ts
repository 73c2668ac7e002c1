import { router } from '../../../trpc.ts';
import { addBlackoutProcedure } from './add-blackout.ts';
import { archiveProcedure } from './archive.ts';
import { createProcedure } from './create.ts';
import { getProcedure } from './get.ts';
import { listProcedure } from './list.ts';
import { removeBlackoutProcedure } from './remove-blackout.ts';
import { restoreProcedure } from './restore.ts';
import { updateProcedure } from './update.ts';

export const merchantBookingResourcesRouter = router({
  list: listProcedure,
  create: createProcedure,
  get: getProcedure,
  update: updateProcedure,
  archive: archiveProcedure,
  restore: restoreProcedure,
  addBlackout: addBlackoutProcedure,
  removeBlackout: removeBlackoutProcedure,
});
