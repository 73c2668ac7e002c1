import { membershipIdInputSchema, removeMembership } from '@commerce/admin';
import { z } from 'zod';
import { merchantProcedureFor } from '../../../trpc.ts';
import { TAGS } from './docs.ts';
import { adminContext } from './membership-admin.ts';

export const removeProcedure = merchantProcedureFor('Owner', 'Admin')
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/merchant/auth/memberships/{id}',
      tags: TAGS,
      summary: 'Remove a membership',
      description:
        'Pending or active; members may remove themselves. Only an Owner may remove an Owner, and the last active Owner stays (`409 LAST_OWNER`).',
    },
    successStatus: 204,
    errors: ['LAST_OWNER'],
  })
  .input(membershipIdInputSchema)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await removeMembership(ctx.db, adminContext(ctx), input.id);
  });
