import { router } from '../../../trpc.ts';
import { getProcedure } from './get.ts';
import { itemsProcedure } from './items.ts';
import { listProcedure } from './list.ts';

export const publicCollectionsRouter = router({
  list: listProcedure,
  get: getProcedure,
  items: itemsProcedure,
});
