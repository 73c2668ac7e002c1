import { AppError } from '@commerce/core';
import type { Membership, MembershipRole } from '@commerce/db';
import { z } from 'zod';

export const ROLES = ['Owner', 'Admin', 'Staff'] as const satisfies readonly MembershipRole[];
export const roleSchema = z.enum(ROLES);

/** The complete list of permission groups (docs/platform.md "Memberships"). Owner and Admin hold them all. */
export const PERMISSION_GROUPS = [
  'settings:manage',
  'catalog:write',
  'content:write',
  'orders:operate',
  'bookings:manage',
  'fulfillment:operate',
  'customers:read',
  'webhooks:manage',
] as const;
export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];
export const permissionGroupSchema = z.enum(PERMISSION_GROUPS);

export type MembershipGrants = Pick<Membership, 'role' | 'permissions'>;

export function hasPermission(membership: MembershipGrants, group: PermissionGroup): boolean {
  if (membership.role === 'Owner' || membership.role === 'Admin') return true;
  return membership.permissions.includes(group);
}

export function assertPermission(membership: MembershipGrants, group: PermissionGroup): void {
  if (!hasPermission(membership, group)) {
    throw new AppError('FORBIDDEN', `This action needs the ${group} permission`);
  }
}

export function assertRole(membership: MembershipGrants, roles: readonly MembershipRole[]): void {
  if (!roles.includes(membership.role)) {
    throw new AppError('FORBIDDEN', `This action needs one of the roles ${roles.join(', ')}`);
  }
}
