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
      description:
        '`permissions` replaces the Staff groups; a role other than Staff holds none. Only an Owner may change an Owner membership or make an Owner, and the last active Owner stays (`409 LAST_OWNER`). A change that changes nothing records nothing.',
    },
    errors: ['LAST_OWNER'],
  })
  .input(updateMembershipInputSchema)
  .output(membershipSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateMembership(ctx.db, adminContext(ctx), id, changes);
  });
