import { type MembershipRead, toMembershipRead } from '@commerce/auth';
import { AppError } from '@commerce/core';
import type { Database, Membership, MembershipRole } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { MembershipAdminContext } from './schemas.ts';

type OwnerRow = Pick<Membership, 'id' | 'status'>;

/**
 * Locks the organization's Owner rows, then the actor's and the target's
 * membership rows, each set in id order. Every membership change takes its
 * locks in this one order, so concurrent changes queue instead of
 * deadlocking, and an Owner count taken under them stays true until commit.
 */
export async function lockForMembershipChange(
  trx: Kysely<Database>,
  ctx: MembershipAdminContext,
  targetId: string,
): Promise<{ owners: OwnerRow[]; actor: Membership | undefined; target: Membership | undefined }> {
  const owners = await trx
    .selectFrom('memberships')
    .select(['id', 'status'])
    .where('organization_id', '=', ctx.organizationId)
    .where('role', '=', 'Owner')
    .orderBy('id')
    .forUpdate()
    .execute();
  const rows = await trx
    .selectFrom('memberships')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('id', 'in', [ctx.actor.membershipId, targetId])
    .orderBy('id')
    .forUpdate()
    .execute();
  return {
    owners,
    actor: rows.find((row) => row.id === ctx.actor.membershipId),
    target: rows.find((row) => row.id === targetId),
  };
}

export function assertManagesMemberships(role: MembershipRole): void {
  if (role !== 'Owner' && role !== 'Admin') {
    throw new AppError('FORBIDDEN', 'Only an Owner or Admin may manage memberships');
  }
}

export function assertOwnerFor(role: MembershipRole, what: string): void {
  if (role !== 'Owner') throw new AppError('FORBIDDEN', `Only an Owner may ${what}`);
}

/**
 * The organization keeps at least one active Owner: a pending Owner grant may
 * never be claimed, so it does not count.
 */
export function assertAnotherActiveOwner(owners: OwnerRow[], target: Membership): void {
  const remaining = owners.filter((owner) => owner.id !== target.id && owner.status === 'ACTIVE');
  if (remaining.length === 0) {
    throw new AppError('LAST_OWNER', 'The organization must keep at least one active Owner');
  }
}

/**
 * The actor's membership as it stands under the locks: a role lost to a
 * concurrent change since the request began no longer authorizes anything.
 */
export function assertActorStillHolds(actor: Membership | undefined, roles: readonly MembershipRole[]): void {
  if (actor?.status !== 'ACTIVE' || !roles.includes(actor.role)) {
    throw new AppError('FORBIDDEN', 'Your membership no longer allows this change');
  }
}

export async function toMembershipReadWithName(
  db: Kysely<Database>,
  membership: Membership,
): Promise<MembershipRead> {
  if (membership.user_id === null) return toMembershipRead(membership, null);
  const user = await db
    .selectFrom('merchant_users')
    .select('name')
    .where('id', '=', membership.user_id)
    .executeTakeFirst();
  return toMembershipRead(membership, user?.name ?? null);
}
