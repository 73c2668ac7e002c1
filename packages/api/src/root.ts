import { merchantAuditLogsRouter } from './routers/merchant/audit-logs.ts';
import { merchantAuthRouter } from './routers/merchant/auth.ts';
import { merchantCollectionsRouter } from './routers/merchant/collections.ts';
import { merchantEmailTemplatesRouter } from './routers/merchant/email-templates.ts';
import { merchantItemsRouter } from './routers/merchant/items.ts';
import { merchantMembershipsRouter } from './routers/merchant/memberships.ts';
import { merchantOnboardingRouter } from './routers/merchant/onboarding.ts';
import { merchantPagesRouter } from './routers/merchant/pages.ts';
import { merchantReviewsRouter } from './routers/merchant/reviews.ts';
import { merchantSettingsRouter } from './routers/merchant/settings.ts';
import { merchantShippingRouter } from './routers/merchant/shipping.ts';
import { platformOrganizationsRouter } from './routers/platform/organizations.ts';
import { platformSignupsRouter } from './routers/platform/signups.ts';
import { publicCollectionsRouter } from './routers/public/collections.ts';
import { publicItemsRouter } from './routers/public/items.ts';
import { publicOrganizationRouter } from './routers/public/organization.ts';
import { publicPagesRouter } from './routers/public/pages.ts';
import { publicReviewsRouter } from './routers/public/reviews.ts';
import { publicShippingRouter } from './routers/public/shipping.ts';
import { publicSignupRouter } from './routers/public/signup.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  public: router({
    organization: publicOrganizationRouter,
    items: publicItemsRouter,
    collections: publicCollectionsRouter,
    pages: publicPagesRouter,
    reviews: publicReviewsRouter,
    shipping: publicShippingRouter,
    signup: publicSignupRouter,
  }),
  merchant: router({
    auth: merchantAuthRouter,
    memberships: merchantMembershipsRouter,
    settings: merchantSettingsRouter,
    onboarding: merchantOnboardingRouter,
    emailTemplates: merchantEmailTemplatesRouter,
    auditLogs: merchantAuditLogsRouter,
    items: merchantItemsRouter,
    collections: merchantCollectionsRouter,
    pages: merchantPagesRouter,
    reviews: merchantReviewsRouter,
    shipping: merchantShippingRouter,
  }),
  platform: router({ organizations: platformOrganizationsRouter, signups: platformSignupsRouter }),
});

export type AppRouter = typeof appRouter;
