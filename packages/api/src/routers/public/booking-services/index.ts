import { router } from '../../../trpc.ts';
import { getProcedure } from './get.ts';
import { listProcedure } from './list.ts';

export const publicBookingServicesRouter = router({
  list: listProcedure,
  get: getProcedure,
});
