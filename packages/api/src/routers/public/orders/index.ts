import { router } from '../../../trpc.ts';
import { createProcedure } from './create.ts';
import { getProcedure } from './get.ts';
import { getByNumberProcedure } from './get-by-number.ts';
import { listProcedure } from './list.ts';
import { statusProcedure } from './status.ts';

export const publicOrdersRouter = router({
  create: createProcedure,
  list: listProcedure,
  getByNumber: getByNumberProcedure,
  get: getProcedure,
  status: statusProcedure,
});
