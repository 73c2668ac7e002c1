import { updateMembership, updateMembershipInputSchema } from '@commerce/admin';
import { membershipSchema } from '@commerce/auth';
import { merchantProcedureFor } from '../../../trpc.ts';
import { TAGS } from './docs.ts';
import { adminContext } from './membership-admin.ts';

export const updateProcedure = merchantProcedureFor('Owner', 'Admin')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/auth/memberships/{id}',
      tags: TAGS,
      summary: "Change a membership's role or Staff permission groups",
      description: [
        'Body `{ role?, permissions? }`, at least one. `permissions` replaces the Staff groups; a role other than Staff holds none, so changing the role away from Staff clears them, and a non-empty list for a non-Staff role is `400 VALIDATION_FAILED`.',
        'Only an Owner may change an Owner membership or make an Owner (`403`). The organization keeps at least one active Owner: demoting the last one is `409 LAST_OWNER`.',
        'An unknown id, or one of another organization, is `404`. A change that changes nothing answers the membership and records nothing; otherwise audited as `membership.updated` with the changed field names.',
      ].join('\n\n'),
    },
    errors: ['LAST_OWNER'],
  })
  .input(updateMembershipInputSchema)
  .output(membershipSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateMembership(ctx.db, adminContext(ctx), id, changes);
  });
