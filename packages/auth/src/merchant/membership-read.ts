import type { Membership } from '@commerce/db';
import type { PermissionGroup } from '../permissions.ts';
import type { MembershipRead } from './schemas.ts';

export function toMembershipRead(membership: Membership, userName: string | null): MembershipRead {
  return {
    id: membership.id,
    userId: membership.user_id,
    email: membership.email,
    name: userName ?? membership.invited_name,
    role: membership.role,
    permissions: membership.permissions as PermissionGroup[],
    status: membership.status,
    createdAt: membership.created_at.toISOString(),
  };
}
