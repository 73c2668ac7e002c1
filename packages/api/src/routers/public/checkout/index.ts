import { router } from '../../../trpc.ts';
import { bindProcedure } from './bind.ts';
import { confirmFreeProcedure } from './confirm-free.ts';
import { createProcedure } from './create.ts';
import { getProcedure } from './get.ts';
import { paymentSessionProcedure } from './payment-session.ts';
import { remindersUnsubscribeProcedure } from './reminders-unsubscribe.ts';
import { repriceProcedure } from './reprice.ts';

export const publicCheckoutRouter = router({
  create: createProcedure,
  get: getProcedure,
  reprice: repriceProcedure,
  bind: bindProcedure,
  confirmFree: confirmFreeProcedure,
  paymentSession: paymentSessionProcedure,
  remindersUnsubscribe: remindersUnsubscribeProcedure,
});
