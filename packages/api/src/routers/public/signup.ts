import { router } from '../../trpc.ts';

export const publicSignupRouter = router({});
