import { router } from '../../../trpc.ts';
import { approveProcedure } from './approve.ts';
import { approveChangeRequestProcedure } from './approve-change-request.ts';
import { cancelProcedure } from './cancel.ts';
import { createProcedure } from './create.ts';
import { declineProcedure } from './decline.ts';
import { declineChangeRequestProcedure } from './decline-change-request.ts';
import { getProcedure } from './get.ts';
import { listProcedure } from './list.ts';
import { rescheduleProcedure } from './reschedule.ts';
import { setAssigneesProcedure } from './set-assignees.ts';

export const merchantBookingsRouter = router({
  list: listProcedure,
  get: getProcedure,
  create: createProcedure,
  approve: approveProcedure,
  decline: declineProcedure,
  cancel: cancelProcedure,
  reschedule: rescheduleProcedure,
  approveChangeRequest: approveChangeRequestProcedure,
  declineChangeRequest: declineChangeRequestProcedure,
  setAssignees: setAssigneesProcedure,
});
