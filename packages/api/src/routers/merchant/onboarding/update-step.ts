import { onboardingStepSchema, updateOnboardingStep, updateOnboardingStepInputSchema } from '@commerce/admin';
import { merchantProcedureFor } from '../../../trpc.ts';
import { merchantActor } from '../../../write-context.ts';

export const updateStepProcedure = merchantProcedureFor('Owner', 'Admin')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/onboarding/steps/{stepKey}',
      tags: ['Merchant: onboarding'],
      summary: 'Complete or reopen an onboarding step',
      description:
        'Body `{ completed }`. Completing an open step stamps `completedAt` and `completedBy` (the caller) and audits `onboarding.step_completed`; reopening a completed step clears both and audits `onboarding.step_reopened` (metadata `{ stepKey }`). A step already in the requested state is answered unchanged, with no audit record. A key outside the canonical list is `404 RESOURCE_NOT_FOUND`. Staff get 403 whatever their permission groups. Answers the step.',
    },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(updateOnboardingStepInputSchema)
  .output(onboardingStepSchema)
  .mutation(({ ctx, input }) =>
    updateOnboardingStep(
      ctx.db,
      {
        organizationId: ctx.tenant.organizationId,
        actor: merchantActor(ctx),
        at: ctx.clock.now(),
      },
      input,
    ),
  );
