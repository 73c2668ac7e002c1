import { router } from '../../../trpc.ts';
import { sendProcedure } from './send.ts';

export const merchantBookingPaymentLinksRouter = router({
  send: sendProcedure,
});
