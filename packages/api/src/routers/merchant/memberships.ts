import {
  grantMembership,
  grantMembershipInputSchema,
  listPermissionPresets,
  type MembershipAdminContext,
  membershipIdInputSchema,
  permissionPresetListSchema,
  removeMembership,
  updateMembership,
  updateMembershipInputSchema,
} from '@commerce/admin';
import { membershipSchema } from '@commerce/auth';
import type { Membership, MerchantUser } from '@commerce/db';
import { z } from 'zod';
import type { ApiContext } from '../../context.ts';
import { merchantProcedure, merchantProcedureFor, router } from '../../trpc.ts';

const TAGS = ['Merchant: auth'];

function adminContext(
  ctx: ApiContext & {
    tenant: { organizationId: string };
    merchantUser: MerchantUser;
    membership: Membership;
  },
): MembershipAdminContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: {
      userId: ctx.merchantUser.id,
      email: ctx.merchantUser.email,
      membershipId: ctx.membership.id,
      role: ctx.membership.role,
    },
    at: ctx.clock.now(),
  };
}

export const merchantMembershipsRouter = router({
  grant: merchantProcedureFor('Owner', 'Admin')
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
    .mutation(({ ctx, input }) => grantMembership(ctx.db, adminContext(ctx), input)),

  update: merchantProcedureFor('Owner', 'Admin')
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
    }),

  remove: merchantProcedureFor('Owner', 'Admin')
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
    }),

  permissionPresets: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/auth/permission-presets',
        tags: TAGS,
        summary: 'Named bundles of Staff permission groups',
        description:
          'Open to any member. A preset is a suggestion for the `permissions` of a Staff grant or update; memberships store the groups, never the preset.',
      },
    })
    .input(z.object({}))
    .output(permissionPresetListSchema)
    .query(() => listPermissionPresets()),
});
