import { getOnboarding, onboardingSchema } from '@commerce/admin';
import { z } from 'zod';
import { merchantProcedure } from '../../../trpc.ts';

export const getProcedure = merchantProcedure
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
  .query(({ ctx }) => getOnboarding(ctx.db, ctx.tenant.organizationId, ctx.clock.now()));
