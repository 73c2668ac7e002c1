import { router } from '../../../trpc.ts';
import { convertProcedure } from './convert.ts';

export const publicBookingCheckoutRouter = router({
  convert: convertProcedure,
});
