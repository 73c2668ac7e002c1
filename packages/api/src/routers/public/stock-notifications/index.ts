import { router } from '../../../trpc.ts';
import { subscribeProcedure } from './subscribe.ts';
import { unsubscribeProcedure } from './unsubscribe.ts';

export const publicStockNotificationsRouter = router({
  subscribe: subscribeProcedure,
  unsubscribe: unsubscribeProcedure,
});
