import { getMerchantSession, merchantSessionSchema } from '@commerce/auth';
import { z } from 'zod';
import { merchantUserProcedure } from '../../../trpc.ts';

export const sessionProcedure = merchantUserProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/auth/session',
      tags: ['Merchant: auth'],
      summary: 'The signed-in merchant user with every membership across organizations',
      description:
        'Needs only the bearer token, no `x-organization-slug`. A first sign-in creates the user and binds the pending memberships granted to its email.',
    },
  })
  .input(z.object({}))
  .output(merchantSessionSchema)
  .query(({ ctx }) => getMerchantSession(ctx.db, ctx.merchantUser));
