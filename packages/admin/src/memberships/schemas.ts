import { PERMISSION_GROUPS, type PermissionGroup, permissionGroupSchema, roleSchema } from '@commerce/auth';
import type { MembershipRole } from '@commerce/db';
import { z } from 'zod';

/** Who changes memberships, in which organization, and when. */
export interface MembershipAdminContext {
  organizationId: string;
  actor: {
    userId: string;
    email: string;
    /** The actor's own membership in the organization, and its role when the request began. */
    membershipId: string;
    role: MembershipRole;
  };
  at: Date;
}

const STAFF_ONLY = 'permission groups apply to Staff only; Owner and Admin hold every group';

/** Permission group names; duplicates are accepted and stored once. */
export const membershipPermissionsSchema = z
  .array(permissionGroupSchema)
  .max(PERMISSION_GROUPS.length * 2)
  .describe(`Permission groups, Staff only (an empty list is accepted for any role). ${STAFF_ONLY}.`);

export const membershipIdSchema = z.string().min(1).max(64).describe('Membership id (`mem_…`)');

export const grantMembershipInputSchema = z
  .strictObject({
    email: z.email().max(320).describe('Matched case-insensitively; stored lowercased'),
    role: roleSchema,
    permissions: membershipPermissionsSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.role !== 'Staff' && input.permissions && input.permissions.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['permissions'], message: STAFF_ONLY });
    }
  });
export type GrantMembershipInput = z.infer<typeof grantMembershipInputSchema>;

export const updateMembershipChangesSchema = z.strictObject({
  role: roleSchema.optional(),
  permissions: membershipPermissionsSchema
    .optional()
    .describe('Replaces the Staff membership’s groups. Changing the role away from Staff clears them.'),
});
export type UpdateMembershipChanges = z.infer<typeof updateMembershipChangesSchema>;

/** The PATCH input: the path's `id` beside the body's changes, at least one change. */
export const updateMembershipInputSchema = updateMembershipChangesSchema
  .extend({ id: membershipIdSchema })
  .superRefine((input, ctx) => {
    if (input.role === undefined && input.permissions === undefined) {
      ctx.addIssue({ code: 'custom', path: [], message: 'send role, permissions or both' });
    }
    if (
      input.role !== undefined &&
      input.role !== 'Staff' &&
      input.permissions &&
      input.permissions.length > 0
    ) {
      ctx.addIssue({ code: 'custom', path: ['permissions'], message: STAFF_ONLY });
    }
  });

export const membershipIdInputSchema = z.object({ id: membershipIdSchema });

export const permissionPresetSchema = z
  .object({
    key: z.string().describe('Stable identifier of the preset'),
    name: z.string(),
    description: z.string(),
    permissions: z.array(permissionGroupSchema),
  })
  .meta({ id: 'PermissionPreset' });
export type PermissionPreset = z.infer<typeof permissionPresetSchema>;

export const permissionPresetListSchema = z
  .object({ data: z.array(permissionPresetSchema) })
  .meta({ id: 'PermissionPresetList' });

/** Groups in the canonical order of PERMISSION_GROUPS, each once. */
export function canonicalPermissions(groups: readonly PermissionGroup[]): PermissionGroup[] {
  return PERMISSION_GROUPS.filter((group) => groups.includes(group));
}
