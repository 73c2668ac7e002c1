import { getSettings, settingsSchema } from '@commerce/admin';
import { z } from 'zod';
import { merchantProcedure } from '../../../trpc.ts';

export const getProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/settings',
      tags: ['Merchant: settings'],
      summary: "The organization's settings",
      description:
        'Each category holds the keys that were set, plus the default of every unset key that has one; an unset key without a default is absent. The first read creates the settings, so this route never answers 404 for them.',
    },
    errors: [],
  })
  .input(z.object({}))
  .output(settingsSchema)
  .query(({ ctx }) => getSettings(ctx.db, ctx.tenant.organizationId, ctx.clock.now()));
