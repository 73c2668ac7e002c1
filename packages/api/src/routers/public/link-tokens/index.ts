import { router } from '../../../trpc.ts';
import { resolveProcedure } from './resolve.ts';

export const publicLinkTokensRouter = router({
  resolve: resolveProcedure,
});
