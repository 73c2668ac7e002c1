import {
  getOnboarding,
  onboardingSchema,
  onboardingStepSchema,
  updateOnboardingStep,
  updateOnboardingStepInputSchema,
} from '@commerce/admin';
import { z } from 'zod';
import { merchantProcedure, merchantProcedureFor, router } from '../../trpc.ts';

export const merchantOnboardingRouter = router({
  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/onboarding',
        tags: ['Merchant: onboarding'],
        summary: 'The onboarding checklist with its progress',
        description:
          'Open to any member. Lists every canonical step in canonical order (`business_profile`, `verify_email`, `first_product`, `shipping_zones`, `checkout_settings`, `email_templates`, `invite_team`); steps missing for the organization are created open on this read. `summary.percent` is `floor(completedSteps × 100 / totalSteps)`, so 100 means every step is completed.',
      },
      errors: [],
    })
    .input(z.object({}))
    .output(onboardingSchema)
    .query(({ ctx }) => getOnboarding(ctx.db, ctx.tenant.organizationId, ctx.clock.now())),

  updateStep: merchantProcedureFor('Owner', 'Admin')
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
          actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
          at: ctx.clock.now(),
        },
        input,
      ),
    ),
});
