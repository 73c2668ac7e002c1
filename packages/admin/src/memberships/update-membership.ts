import type { MembershipRead, PermissionGroup } from '@commerce/auth';
import { AppError } from '@commerce/core';
import { type Database, type MembershipRole, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  assertActorStillHolds,
  assertAnotherActiveOwner,
  assertManagesMemberships,
  assertOwnerFor,
  lockForMembershipChange,
  toMembershipReadWithName,
} from './membership-locks.ts';
import {
  canonicalPermissions,
  type MembershipAdminContext,
  type UpdateMembershipChanges,
} from './schemas.ts';

/**
 * Changes a membership's role, its Staff permission groups, or both. Only an
 * Owner touches an Owner membership or makes an Owner; the last active Owner
 * cannot be demoted (`LAST_OWNER`). A role other than Staff holds no groups,
 * so leaving Staff clears them. A change that changes nothing writes nothing.
 */
export async function updateMembership(
  db: Kysely<Database>,
  ctx: MembershipAdminContext,
  membershipId: string,
  changes: UpdateMembershipChanges,
): Promise<MembershipRead> {
  assertManagesMemberships(ctx.actor.role);
  if (changes.role === undefined && changes.permissions === undefined) {
    throw AppError.validation([{ path: '', message: 'send role, permissions or both' }]);
  }

  return db.transaction().execute(async (trx) => {
    const { owners, actor, target } = await lockForMembershipChange(trx, ctx, membershipId);
    if (!target) throw AppError.notFound('Membership not found');

    const role: MembershipRole = changes.role ?? target.role;
    const touchesOwner = target.role === 'Owner' || role === 'Owner';
    if (touchesOwner) assertOwnerFor(ctx.actor.role, 'change an Owner membership or make an Owner');
    if (role !== 'Staff' && changes.permissions && changes.permissions.length > 0) {
      throw AppError.validation([{ path: 'permissions', message: 'permission groups apply to Staff only' }]);
    }
    if (target.role === 'Owner' && role !== 'Owner') assertAnotherActiveOwner(owners, target);
    assertActorStillHolds(actor, touchesOwner ? ['Owner'] : ['Owner', 'Admin']);

    const current = target.permissions as PermissionGroup[];
    const permissions =
      role === 'Staff'
        ? canonicalPermissions(changes.permissions ?? (target.role === 'Staff' ? current : []))
        : [];
    const fields: string[] = [];
    if (role !== target.role) fields.push('role');
    if (permissions.join() !== canonicalPermissions(current).join()) fields.push('permissions');
    if (fields.length === 0) return toMembershipReadWithName(trx, target);

    const updated = await trx
      .updateTable('memberships')
      .set({ role, permissions: JSON.stringify(permissions), updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', target.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: { userId: ctx.actor.userId, email: ctx.actor.email },
      action: 'membership.updated',
      targetType: 'membership',
      targetId: target.id,
      metadata: {
        fields,
        ...(fields.includes('role') ? { role, previousRole: target.role } : {}),
        ...(fields.includes('permissions') ? { permissions } : {}),
      },
      at: ctx.at,
    });
    return toMembershipReadWithName(trx, updated);
  });
}
