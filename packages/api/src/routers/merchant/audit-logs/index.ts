import { router } from '../../../trpc.ts';
import { exportProcedure } from './export.ts';
import { listProcedure } from './list.ts';

export const merchantAuditLogsRouter = router({
  list: listProcedure,
  export: exportProcedure,
});
