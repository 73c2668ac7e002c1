import { router } from '../../trpc.ts';

export const merchantItemsRouter = router({});
