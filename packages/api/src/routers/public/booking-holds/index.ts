import { router } from '../../../trpc.ts';
import { createProcedure } from './create.ts';
import { releaseProcedure } from './release.ts';

export const publicBookingHoldsRouter = router({
  create: createProcedure,
  release: releaseProcedure,
});
