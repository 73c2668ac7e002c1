import { router } from '../../../trpc.ts';
import { createProcedure } from './create.ts';
import { getProcedure } from './get.ts';
import { releaseProcedure } from './release.ts';

export const publicBookingHoldsRouter = router({
  create: createProcedure,
  get: getProcedure,
  release: releaseProcedure,
});
