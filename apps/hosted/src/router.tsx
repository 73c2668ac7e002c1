import { createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { checkoutRoutes } from './routes-checkout.tsx';
import { rootRoute, tokenSearch } from './routes-root.tsx';

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

/** The account pages above, then the checkout and booking-link pages of routes-checkout.tsx. */
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
