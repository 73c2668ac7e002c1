import { router } from '../../../trpc.ts';
import { getProcedure } from './get.ts';
import { updateStepProcedure } from './update-step.ts';

export const merchantOnboardingRouter = router({
  get: getProcedure,
  updateStep: updateStepProcedure,
});
