import { router } from '../../../trpc.ts';
import { listProcedure } from './list.ts';

export const platformSignupsRouter = router({
  list: listProcedure,
});
