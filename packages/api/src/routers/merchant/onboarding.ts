import { router } from '../../trpc.ts';

export const merchantOnboardingRouter = router({});
