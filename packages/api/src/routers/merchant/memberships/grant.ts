import { grantMembership, grantMembershipInputSchema } from '@commerce/admin';
import { membershipSchema } from '@commerce/auth';
import { merchantProcedureFor } from '../../../trpc.ts';
import { TAGS } from './docs.ts';
import { adminContext } from './membership-admin.ts';

export const grantProcedure = merchantProcedureFor('Owner', 'Admin')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/auth/memberships',
      tags: TAGS,
      summary: 'Grant a membership to an email',
      description:
        'Only an Owner may grant `Owner`; permission groups are for Staff only. The membership is active at once when a user already signed in with that email, else pending until one does. No email is sent.',
    },
    successStatus: 201,
    errors: ['MEMBERSHIP_EXISTS'],
  })
  .input(grantMembershipInputSchema)
  .output(membershipSchema)
  .mutation(({ ctx, input }) => grantMembership(ctx.db, adminContext(ctx), input));
