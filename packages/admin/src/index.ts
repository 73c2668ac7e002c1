export { exportAuditLogsCsv } from './audit/export-audit-logs.ts';
export { listAuditLogs } from './audit/list-audit-logs.ts';
export { auditLogExportQuerySchema, auditLogListQuerySchema, auditLogSchema } from './audit/schemas.ts';
export type { EmailTemplateScope } from './email-templates/email-template-read.ts';
export { listEmailTemplates } from './email-templates/list-email-templates.ts';
export { previewEmailTemplate } from './email-templates/preview-email-template.ts';
export {
  emailTemplateListSchema,
  emailTemplatePreviewSchema,
  emailTemplateSchema,
  previewEmailTemplateInputSchema,
  sendTestEmailTemplateInputSchema,
  sendTestResultSchema,
  updateEmailTemplateInputSchema,
} from './email-templates/schemas.ts';
export { sendTestEmailTemplate } from './email-templates/send-test-email-template.ts';
export { updateEmailTemplate } from './email-templates/update-email-template.ts';
export { grantMembership } from './memberships/grant-membership.ts';
export { listPermissionPresets } from './memberships/permission-presets.ts';
export { removeMembership } from './memberships/remove-membership.ts';
export {
  grantMembershipInputSchema,
  type MembershipAdminContext,
  membershipIdInputSchema,
  permissionPresetListSchema,
  updateMembershipInputSchema,
} from './memberships/schemas.ts';
export { updateMembership } from './memberships/update-membership.ts';
export { getOnboarding } from './onboarding/get-onboarding.ts';
export {
  onboardingSchema,
  onboardingStepSchema,
  updateOnboardingStepInputSchema,
} from './onboarding/schemas.ts';
export { ONBOARDING_STEPS } from './onboarding/steps.ts';
export { updateOnboardingStep } from './onboarding/update-onboarding-step.ts';
export { createOrganization } from './organizations/create-organization.ts';
export {
  findTenantSnapshotBySlug,
  type StorefrontProfile,
  type Tenant,
  type TenantSnapshot,
  type TenantWithOrigins,
} from './organizations/find-organization.ts';
export { createOrganizationInputSchema, organizationSchema } from './organizations/schemas.ts';
export { seedDemoOrganization } from './organizations/seed-demo.ts';
export {
  TENANT_CACHE_TTL_MS,
  TENANT_CHANGES_CHANNEL,
  TenantDirectory,
  type TenantDirectoryOptions,
} from './organizations/tenant-directory.ts';
export { getSettings } from './settings/get-settings.ts';
export { settingsSchema, updateSettingsInputSchema } from './settings/schemas.ts';
export { updateSettings } from './settings/update-settings.ts';
export { captureSignup } from './signups/capture-signup.ts';
export { listSignups } from './signups/list-signups.ts';
export {
  captureSignupInputSchema,
  signupAcknowledgementSchema,
  signupListQuerySchema,
  signupSchema,
} from './signups/schemas.ts';
