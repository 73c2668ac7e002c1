import { router } from '../../../trpc.ts';
import { cancelProcedure } from './cancel.ts';
import { createProcedure } from './create.ts';
import { issueActionProcedure } from './issue-action.ts';
import { issueActionByNumberProcedure } from './issue-action-by-number.ts';
import { listProcedure } from './list.ts';
import { listByNumberProcedure } from './list-by-number.ts';

export const customerReturnsRouter = router({
  list: listProcedure,
  create: createProcedure,
  cancel: cancelProcedure,
  issueAction: issueActionProcedure,
  listByNumber: listByNumberProcedure,
  issueActionByNumber: issueActionByNumberProcedure,
});
