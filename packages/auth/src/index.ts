export { mintDevToken } from './dev-token.ts';
export { addMembership } from './merchant/add-membership.ts';
export { findActiveMembership } from './merchant/find-membership.ts';
export { getMerchantSession } from './merchant/get-merchant-session.ts';
export { listMemberships } from './merchant/list-memberships.ts';
export { toMembershipRead } from './merchant/membership-read.ts';
export { resolveMerchantUser } from './merchant/resolve-merchant-user.ts';
export {
  type MembershipRead,
  membershipSchema,
  merchantSessionSchema,
  merchantUserSchema,
  updateProfileInputSchema,
} from './merchant/schemas.ts';
export { updateMerchantProfile } from './merchant/update-merchant-profile.ts';
export { bearerToken, createMerchantTokenVerifier, type MerchantTokenVerifier } from './merchant-jwt.ts';
export {
  assertPermission,
  assertRole,
  hasPermission,
  PERMISSION_GROUPS,
  type PermissionGroup,
  permissionGroupSchema,
  roleSchema,
} from './permissions.ts';
