import { merchantAuthRouter } from './routers/merchant/auth.ts';
import { platformOrganizationsRouter } from './routers/platform/organizations.ts';
import { publicOrganizationRouter } from './routers/public/organization.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  public: router({ organization: publicOrganizationRouter }),
  merchant: router({ auth: merchantAuthRouter }),
  platform: router({ organizations: platformOrganizationsRouter }),
});

export type AppRouter = typeof appRouter;
