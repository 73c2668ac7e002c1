import { merchantUserSchema, updateMerchantProfile, updateProfileInputSchema } from '@commerce/auth';
import { merchantUserProcedure } from '../../../trpc.ts';

export const updateProfileProcedure = merchantUserProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/auth/profile',
      tags: ['Merchant: auth'],
      summary: "Update the signed-in user's own name",
      description: "Later tokens' `name` claims do not overwrite a name set here.",
    },
  })
  .input(updateProfileInputSchema)
  .output(merchantUserSchema)
  .mutation(({ ctx, input }) => updateMerchantProfile(ctx.db, ctx.merchantUser, input, ctx.clock.now()));
