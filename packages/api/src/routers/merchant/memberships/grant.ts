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
      description: [
        'Body `{ email, role, permissions? }`. Only an Owner may grant `Owner`.',
        '`permissions` (permission group names) are for Staff only: a non-empty list with `Owner` or `Admin` is `400 VALIDATION_FAILED`; duplicates are stored once.',
        'The membership is `ACTIVE` at once when a user already signed in with that email (verified), otherwise `PENDING` until that email signs in. No email is sent.',
        'An email that already has a membership in the organization (any case, pending or active) is `409 MEMBERSHIP_EXISTS`. Audited as `membership.granted`.',
      ].join('\n\n'),
    },
    successStatus: 201,
    errors: ['MEMBERSHIP_EXISTS'],
  })
  .input(grantMembershipInputSchema)
  .output(membershipSchema)
  .mutation(({ ctx, input }) => grantMembership(ctx.db, adminContext(ctx), input));
