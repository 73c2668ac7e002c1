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
      description: [
        'Deletes the membership (pending or active); the audit log keeps its history as `membership.removed` with the email and role it had. Members may remove themselves.',
        'Only an Owner may remove an Owner (`403`); removing the last active Owner is `409 LAST_OWNER`. An unknown id, or one of another organization, is `404`.',
      ].join('\n\n'),
    },
    successStatus: 204,
    errors: ['LAST_OWNER'],
  })
  .input(membershipIdInputSchema)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await removeMembership(ctx.db, adminContext(ctx), input.id);
  });
