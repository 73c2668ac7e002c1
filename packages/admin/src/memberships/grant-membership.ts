import { addMembership, type MembershipRead } from '@commerce/auth';
import { AppError } from '@commerce/core';
import { type Database, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  assertActorStillHolds,
  assertManagesMemberships,
  assertOwnerFor,
  toMembershipReadWithName,
} from './membership-locks.ts';
import { canonicalPermissions, type GrantMembershipInput, type MembershipAdminContext } from './schemas.ts';

/**
 * Grants a membership to an email (docs/platform.md "Memberships"): active at once for
 * the one user who holds that email verified, otherwise pending until that
 * email signs in. Owner and Admin may grant; only an Owner grants `Owner`.
 * A second grant for the same email in the organization is refused by the
 * unique index, so concurrent duplicates give exactly one membership.
 */
export async function grantMembership(
  db: Kysely<Database>,
  ctx: MembershipAdminContext,
  input: GrantMembershipInput,
): Promise<MembershipRead> {
  assertManagesMemberships(ctx.actor.role);
  if (input.role === 'Owner') assertOwnerFor(ctx.actor.role, 'grant the Owner role');
  if (input.role !== 'Staff' && input.permissions && input.permissions.length > 0) {
    throw AppError.validation([{ path: 'permissions', message: 'permission groups apply to Staff only' }]);
  }

  try {
    return await db.transaction().execute(async (trx) => {
      // Held until commit, so that a concurrent demotion of the actor waits for this grant.
      const actor = await trx
        .selectFrom('memberships')
        .selectAll()
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', ctx.actor.membershipId)
        .forShare()
        .executeTakeFirst();
      assertActorStillHolds(actor, input.role === 'Owner' ? ['Owner'] : ['Owner', 'Admin']);

      const permissions = input.role === 'Staff' ? canonicalPermissions(input.permissions ?? []) : [];
      const membership = await addMembership(trx, {
        organizationId: ctx.organizationId,
        email: input.email,
        role: input.role,
        permissions,
        at: ctx.at,
      });
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: { userId: ctx.actor.userId, email: ctx.actor.email },
        action: 'membership.granted',
        targetType: 'membership',
        targetId: membership.id,
        metadata: { email: membership.email, role: membership.role, permissions },
        at: ctx.at,
      });
      return toMembershipReadWithName(trx, membership);
    });
  } catch (error) {
    // By email, or (an email changed at the provider) the user it binds to is already a member.
    if (
      isUniqueViolation(error, 'memberships_email_key') ||
      isUniqueViolation(error, 'memberships_user_key')
    ) {
      throw new AppError('MEMBERSHIP_EXISTS', 'This email already has a membership in the organization');
    }
    throw error;
  }
}
