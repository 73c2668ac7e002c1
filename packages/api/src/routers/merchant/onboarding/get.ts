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
        'Every step in its fixed order; steps missing for the organization are created open on this read.',
    },
    errors: [],
  })
  .input(z.object({}))
  .output(onboardingSchema)
  .query(({ ctx }) => getOnboarding(ctx.db, ctx.tenant.organizationId, ctx.clock.now()));
