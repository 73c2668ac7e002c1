import { router } from '../../../trpc.ts';
import { accountCancelRequestProcedure } from './account-cancel-request.ts';
import { accountGetProcedure } from './account-get.ts';
import { accountListProcedure } from './account-list.ts';
import { accountRescheduleRequestProcedure } from './account-reschedule-request.ts';
import { guestCancelRequestProcedure } from './guest-cancel-request.ts';
import { guestGetProcedure } from './guest-get.ts';
import { guestRescheduleRequestProcedure } from './guest-reschedule-request.ts';

export const customerBookingsRouter = router({
  list: accountListProcedure,
  get: accountGetProcedure,
  cancelRequest: accountCancelRequestProcedure,
  rescheduleRequest: accountRescheduleRequestProcedure,
});

export const guestBookingsRouter = router({
  get: guestGetProcedure,
  cancelRequest: guestCancelRequestProcedure,
  rescheduleRequest: guestRescheduleRequestProcedure,
});
