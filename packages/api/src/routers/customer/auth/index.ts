import { router } from '../../../trpc.ts';
import { logoutProcedure } from './logout.ts';

export const customerAuthRouter = router({
  logout: logoutProcedure,
});
