import { router } from '../../../trpc.ts';
import { archiveProcedure } from './archive.ts';
import { createProcedure } from './create.ts';
import { getProcedure } from './get.ts';
import { listProcedure } from './list.ts';
import { restoreProcedure } from './restore.ts';
import { updateProcedure } from './update.ts';

export const merchantBookingServicesRouter = router({
  list: listProcedure,
  create: createProcedure,
  get: getProcedure,
  update: updateProcedure,
  archive: archiveProcedure,
  restore: restoreProcedure,
});
