import { router } from '../../trpc.ts';

export const platformSignupsRouter = router({});
