import { router } from '../../trpc.ts';

export const publicItemsRouter = router({});
