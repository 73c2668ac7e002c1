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
        'Completing records who and when; reopening clears both. A step already in the requested state is answered unchanged.',
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
