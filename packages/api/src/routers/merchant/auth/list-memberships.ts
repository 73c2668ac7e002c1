import { listMemberships, membershipSchema } from '@commerce/auth';
import { pageQuerySchema, pageSchema } from '@commerce/core';
import { merchantProcedure } from '../../../trpc.ts';

export const listMembershipsProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/auth/memberships',
      tags: ['Merchant: auth'],
      summary: 'Memberships of the active organization, oldest first',
    },
  })
  .input(pageQuerySchema)
  .output(pageSchema(membershipSchema))
  .query(({ ctx, input }) => listMemberships(ctx.db, ctx.tenant.organizationId, input));
