import { useQuery } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Link,
  lazyRouteComponent,
  Outlet,
  redirect,
  useRouterState,
} from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { useTRPC } from './lib/trpc.ts';
import { checkoutRoutes } from './routes-checkout.tsx';

/**
 * Pages load with their route (one chunk per page module): the shell (React, the router, the query
 * client and tRPC) loads first and a page's code, forms and schemas only when it is opened.
 */
const accountPages = () => import('./pages/account.tsx');
const orderPages = () => import('./pages/orders.tsx');
const bookingPages = () => import('./pages/bookings.tsx');
const signInPages = () => import('./pages/sign-in.tsx');
const AccountHomePage = lazyRouteComponent(accountPages, 'AccountHomePage');
const AddressesPage = lazyRouteComponent(() => import('./pages/addresses.tsx'), 'AddressesPage');
const BookingDetailPage = lazyRouteComponent(bookingPages, 'BookingDetailPage');
const BookingsPage = lazyRouteComponent(bookingPages, 'BookingsPage');
const OrderDetailPage = lazyRouteComponent(orderPages, 'OrderDetailPage');
const OrderStatusPage = lazyRouteComponent(orderPages, 'OrderStatusPage');
const OrdersPage = lazyRouteComponent(orderPages, 'OrdersPage');
const ProfilePage = lazyRouteComponent(() => import('./pages/profile.tsx'), 'ProfilePage');
const SignInPage = lazyRouteComponent(signInPages, 'SignInPage');
const VerifyLinkPage = lazyRouteComponent(signInPages, 'VerifyLinkPage');
const UnsubscribePage = lazyRouteComponent(() => import('./pages/unsubscribe.tsx'), 'UnsubscribePage');

export interface RouterContext {
  /** The tenant the path names (`/hosted/<slug>/…`). */
  slug: string;
}

const tokenSearch = z.object({ token: z.string().max(200).optional() });

/** After a navigation, focus moves to the page's main region, so a screen reader announces the new page. */
function useFocusOnNavigation() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus();
  }, [pathname]);
}

function Layout() {
  useFocusOnNavigation();
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
            <li>
              <Link to="/account/orders">Orders</Link>
            </li>
            <li>
              <Link to="/account/bookings">Bookings</Link>
            </li>
            <li>
              <Link to="/account/addresses">Addresses</Link>
            </li>
            <li>
              <Link to="/account/profile">Profile</Link>
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

const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account/profile',
  component: ProfilePage,
});
const addressesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account/addresses',
  component: AddressesPage,
});
const ordersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account/orders',
  component: OrdersPage,
});
const orderRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account/orders/$orderReference',
  component: OrderDetailPage,
});
const bookingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account/bookings',
  component: BookingsPage,
});
const bookingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account/bookings/$id',
  component: BookingDetailPage,
});
const orderStatusRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/order-status',
  validateSearch: tokenSearch,
  component: function OrderStatus() {
    return <OrderStatusPage token={orderStatusRoute.useSearch().token} />;
  },
});
const emailUnsubscribeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/email/unsubscribe',
  validateSearch: tokenSearch,
  component: function EmailUnsubscribe() {
    return <UnsubscribePage kind="email" token={emailUnsubscribeRoute.useSearch().token} />;
  },
});
const cartUnsubscribeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/cart/reminders/unsubscribe',
  validateSearch: tokenSearch,
  component: function CartUnsubscribe() {
    return <UnsubscribePage kind="cart" token={cartUnsubscribeRoute.useSearch().token} />;
  },
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
  profileRoute,
  addressesRoute,
  ordersRoute,
  orderRoute,
  bookingsRoute,
  bookingRoute,
  orderStatusRoute,
  emailUnsubscribeRoute,
  cartUnsubscribeRoute,
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
