import { router } from '../../trpc.ts';

export const merchantPagesRouter = router({});
