import { router } from '../../../trpc.ts';
import { listProcedure } from './list.ts';
import { submitProcedure } from './submit.ts';

export const publicReviewsRouter = router({
  submit: submitProcedure,
  list: listProcedure,
});
