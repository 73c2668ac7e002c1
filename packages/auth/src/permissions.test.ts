import { AppError } from '@commerce/core';
import { describe, expect, it } from 'vitest';
import {
  assertPermission,
  assertRole,
  hasPermission,
  type MembershipGrants,
  PERMISSION_GROUPS,
  type PermissionGroup,
  permissionGroupSchema,
  ROLES,
} from './permissions.ts';

const owner: MembershipGrants = { role: 'Owner', permissions: [] };
const admin: MembershipGrants = { role: 'Admin', permissions: [] };
const staffWithCatalog: MembershipGrants = {
  role: 'Staff',
  permissions: ['catalog:write', 'orders:operate'],
};
const staffWithNothing: MembershipGrants = { role: 'Staff', permissions: [] };

function forbiddenOf(action: () => void): AppError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected FORBIDDEN');
}

describe('permission groups', () => {
  it('are exactly the documented list of permission groups', () => {
    expect([...PERMISSION_GROUPS].sort()).toEqual(
      [
        'settings:manage',
        'catalog:write',
        'content:write',
        'orders:operate',
        'bookings:manage',
        'fulfillment:operate',
        'customers:read',
        'webhooks:manage',
      ].sort(),
    );
    expect(ROLES).toEqual(['Owner', 'Admin', 'Staff']);
    expect(permissionGroupSchema.safeParse('catalog:read').success).toBe(false);
  });
});

describe('hasPermission', () => {
  it.each(PERMISSION_GROUPS)('Owner and Admin hold %s without listing it', (group) => {
    expect(hasPermission(owner, group)).toBe(true);
    expect(hasPermission(admin, group)).toBe(true);
  });

  it.each(PERMISSION_GROUPS)('Staff holds %s only when granted', (group) => {
    expect(hasPermission(staffWithCatalog, group)).toBe(staffWithCatalog.permissions.includes(group));
    expect(hasPermission(staffWithNothing, group)).toBe(false);
    expect(hasPermission({ role: 'Staff', permissions: [group] }, group)).toBe(true);
  });
});

describe('assertPermission', () => {
  it('passes for Owner, Admin and Staff with the group', () => {
    for (const membership of [owner, admin, staffWithCatalog]) {
      expect(() => assertPermission(membership, 'catalog:write')).not.toThrow();
    }
  });

  it.each<[string, MembershipGrants, PermissionGroup]>([
    ['Staff without any group', staffWithNothing, 'catalog:write'],
    ['Staff with other groups', staffWithCatalog, 'settings:manage'],
  ])('throws FORBIDDEN for %s', (_label, membership, group) => {
    const error = forbiddenOf(() => assertPermission(membership, group));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.status).toBe(403);
    expect(error.message).toContain(group);
  });
});

describe('assertRole', () => {
  it('passes when the role is listed', () => {
    expect(() => assertRole(owner, ['Owner', 'Admin'])).not.toThrow();
    expect(() => assertRole(admin, ['Owner', 'Admin'])).not.toThrow();
    expect(() => assertRole(owner, ['Owner'])).not.toThrow();
  });

  it.each<[string, MembershipGrants, ('Owner' | 'Admin' | 'Staff')[]]>([
    [
      'Staff, even with every group, for Owner or Admin',
      { role: 'Staff', permissions: [...PERMISSION_GROUPS] },
      ['Owner', 'Admin'],
    ],
    ['Admin for Owner only', admin, ['Owner']],
    ['anyone for an empty list', owner, []],
  ])('throws FORBIDDEN for %s', (_label, membership, roles) => {
    const error = forbiddenOf(() => assertRole(membership, roles));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.status).toBe(403);
  });
});
