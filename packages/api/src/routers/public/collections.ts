import { router } from '../../trpc.ts';

export const publicCollectionsRouter = router({});
