import { router } from '../../../trpc.ts';
import { searchProcedure } from './search.ts';

export const publicBookingAvailabilityRouter = router({
  search: searchProcedure,
});
