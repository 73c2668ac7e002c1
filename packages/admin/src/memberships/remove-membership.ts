import { AppError } from '@commerce/core';
import { type Database, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  assertActorStillHolds,
  assertAnotherActiveOwner,
  assertManagesMemberships,
  assertOwnerFor,
  lockForMembershipChange,
} from './membership-locks.ts';
import type { MembershipAdminContext } from './schemas.ts';

/**
 * Removes a membership: the row is deleted and the audit log keeps its
 * history (`membership.removed` with the email and role it had). Only an
 * Owner removes an Owner; the last active Owner cannot be removed
 * (`LAST_OWNER`). Members may remove themselves under the same rules.
 */
export async function removeMembership(
  db: Kysely<Database>,
  ctx: MembershipAdminContext,
  membershipId: string,
): Promise<void> {
  assertManagesMemberships(ctx.actor.role);

  await db.transaction().execute(async (trx) => {
    const { owners, actor, target } = await lockForMembershipChange(trx, ctx, membershipId);
    if (!target) throw AppError.notFound('Membership not found');

    const isOwner = target.role === 'Owner';
    if (isOwner) {
      assertOwnerFor(ctx.actor.role, 'remove an Owner');
      assertAnotherActiveOwner(owners, target);
    }
    assertActorStillHolds(actor, isOwner ? ['Owner'] : ['Owner', 'Admin']);

    await trx
      .deleteFrom('memberships')
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', target.id)
      .execute();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: { userId: ctx.actor.userId, email: ctx.actor.email },
      action: 'membership.removed',
      targetType: 'membership',
      targetId: target.id,
      metadata: {
        email: target.email,
        role: target.role,
        status: target.status,
        userId: target.user_id,
      },
      at: ctx.at,
    });
  });
}
