import { router } from '../../../trpc.ts';
import { convertProcedure } from './convert.ts';
import { paymentProcedure } from './payment.ts';

export const publicBookingCheckoutRouter = router({
  convert: convertProcedure,
  payment: paymentProcedure,
});
