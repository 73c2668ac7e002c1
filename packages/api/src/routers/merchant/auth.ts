import {
  getMerchantSession,
  listMemberships,
  membershipSchema,
  merchantSessionSchema,
  merchantUserSchema,
  updateMerchantProfile,
  updateProfileInputSchema,
} from '@commerce/auth';
import { pageQuerySchema, pageSchema } from '@commerce/core';
import { z } from 'zod';
import { merchantProcedure, merchantUserProcedure, router } from '../../trpc.ts';

export const merchantAuthRouter = router({
  session: merchantUserProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/auth/session',
        tags: ['Merchant: auth'],
        summary: 'The signed-in merchant user with every membership across organizations',
        description:
          'Needs only the bearer token; the x-organization-slug header is not required. A first sign-in creates the user and binds the pending memberships granted to its email.',
      },
    })
    .input(z.object({}))
    .output(merchantSessionSchema)
    .query(({ ctx }) => getMerchantSession(ctx.db, ctx.merchantUser)),

  updateProfile: merchantUserProcedure
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
    .mutation(({ ctx, input }) => updateMerchantProfile(ctx.db, ctx.merchantUser, input, ctx.clock.now())),

  listMemberships: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/auth/memberships',
        tags: ['Merchant: auth'],
        summary: 'Memberships of the active organization, oldest first',
        description: 'Open to any member of the organization.',
      },
    })
    .input(pageQuerySchema)
    .output(pageSchema(membershipSchema))
    .query(({ ctx, input }) => listMemberships(ctx.db, ctx.tenant.organizationId, input)),
});
