import { merchantAuditLogsRouter } from './routers/merchant/audit-logs.ts';
import { merchantAuthRouter } from './routers/merchant/auth.ts';
import { merchantEmailTemplatesRouter } from './routers/merchant/email-templates.ts';
import { merchantMembershipsRouter } from './routers/merchant/memberships.ts';
import { merchantOnboardingRouter } from './routers/merchant/onboarding.ts';
import { merchantSettingsRouter } from './routers/merchant/settings.ts';
import { platformOrganizationsRouter } from './routers/platform/organizations.ts';
import { publicOrganizationRouter } from './routers/public/organization.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  public: router({ organization: publicOrganizationRouter }),
  merchant: router({
    auth: merchantAuthRouter,
    memberships: merchantMembershipsRouter,
    settings: merchantSettingsRouter,
    onboarding: merchantOnboardingRouter,
    emailTemplates: merchantEmailTemplatesRouter,
    auditLogs: merchantAuditLogsRouter,
  }),
  platform: router({ organizations: platformOrganizationsRouter }),
});

export type AppRouter = typeof appRouter;
