import { router } from '../../../trpc.ts';
import { getProcedure } from './get.ts';
import { listProcedure } from './list.ts';
import { resolveProcedure } from './resolve.ts';

export const publicItemsRouter = router({
  list: listProcedure,
  resolve: resolveProcedure,
  get: getProcedure,
});
