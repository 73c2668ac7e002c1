import { router } from '../../trpc.ts';

export const merchantCollectionsRouter = router({});
