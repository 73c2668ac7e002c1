import { router } from '../../../trpc.ts';
import { listProcedure } from './list.ts';
import { publishProcedure } from './publish.ts';
import { rejectProcedure } from './reject.ts';

export const merchantReviewsRouter = router({
  list: listProcedure,
  publish: publishProcedure,
  reject: rejectProcedure,
});
