import { useQuery } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Link,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { z } from 'zod';
import { useTRPC } from './lib/trpc.ts';
import { AccountHomePage } from './pages/account.tsx';
import { SignInPage, VerifyLinkPage } from './pages/sign-in.tsx';
import { checkoutRoutes } from './routes-checkout.tsx';

export interface RouterContext {
  /** The tenant the path names (`/hosted/<slug>/…`). */
  slug: string;
}

const tokenSearch = z.object({ token: z.string().max(200).optional() });

function Layout() {
  const trpc = useTRPC();
  const store = useQuery(trpc.public.organization.get.queryOptions({}, { staleTime: 5 * 60_000 }));
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to="/account" className="store-name">
          {store.data?.name ?? 'Store'}
        </Link>
        <nav aria-label="Account">
          <ul>
            <li>
              <Link to="/account" activeOptions={{ exact: true }}>
                Account
              </Link>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Layout,
  notFoundComponent: () => (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        <Link to="/account">Go to your account</Link>
      </p>
    </section>
  ),
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/account' });
  },
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account/sign-in',
  validateSearch: z.object({ redirect: z.string().max(500).optional() }),
  component: SignInPage,
});

const verifyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account/verify',
  validateSearch: tokenSearch,
  component: VerifyLinkPage,
});

const accountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account',
  component: AccountHomePage,
});

/**
 * Part B (checkout, payment, booking checkout and `/bookings/manage/$token`) adds its routes to this
 * tree, from `src/pages/checkout.tsx` and `src/pages/booking-manage.tsx`.
 */
const routeTree = rootRoute.addChildren([
  indexRoute,
  signInRoute,
  verifyRoute,
  accountRoute,
  ...checkoutRoutes,
]);

export function createAppRouter(basepath: string, slug: string) {
  return createRouter({
    routeTree,
    basepath,
    context: { slug },
    defaultPreload: false,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
