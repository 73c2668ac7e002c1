import { router } from '../../../trpc.ts';
import { approveProcedure } from './approve.ts';
import { completeProcedure } from './complete.ts';
import { getProcedure } from './get.ts';
import { listProcedure } from './list.ts';
import { receiveProcedure } from './receive.ts';
import { rejectProcedure } from './reject.ts';

export const merchantReturnsRouter = router({
  list: listProcedure,
  get: getProcedure,
  approve: approveProcedure,
  reject: rejectProcedure,
  receive: receiveProcedure,
  complete: completeProcedure,
});
