import { router } from '../../trpc.ts';

export const publicPagesRouter = router({});
