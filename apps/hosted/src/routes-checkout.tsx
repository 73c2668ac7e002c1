import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute, tokenSearch } from './routes-root.tsx';

// Each page module is its own chunk, loaded when its route opens (see router.tsx).
const BookingCheckoutPage = lazyRouteComponent(
  () => import('./pages/booking-checkout.tsx'),
  'BookingCheckoutPage',
);
const BookingManagePage = lazyRouteComponent(() => import('./pages/booking-manage.tsx'), 'BookingManagePage');
const BookingPaymentDetails = lazyRouteComponent(
  () => import('./pages/booking-payment.tsx'),
  'BookingPaymentDetails',
);
const CheckoutPage = lazyRouteComponent(() => import('./pages/checkout.tsx'), 'CheckoutPage');
const CheckoutResultPage = lazyRouteComponent(
  () => import('./pages/checkout-result.tsx'),
  'CheckoutResultPage',
);

/**
 * The checkout pages: checkout and payment for a `c1_` session token, the result page, the
 * booking checkout from a hold and the emailed booking management link. Added to the tree in
 * router.tsx. Search parameters are read leniently (a malformed one is absent) and bounded.
 */

const checkoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/checkout',
  validateSearch: tokenSearch,
  component: function Checkout() {
    const { token } = checkoutRoute.useSearch();
    return <CheckoutPage key={token} token={token ?? ''} />;
  },
});

/**
 * `/checkout/<c1_ token>`: the path for a checkout session a storefront created, the same
 * page as `?token=` (the query form keeps the token out of the path for a storefront that prefers it).
 * `pay` and `result` are static segments and win over this one.
 */
const checkoutTokenRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/checkout/$token',
  component: function CheckoutByPath() {
    const { token } = checkoutTokenRoute.useParams();
    return <CheckoutPage key={token} token={token.slice(0, 200)} />;
  },
});

/**
 * The booking payment link already emailed (docs/hosted-app.md, "Checkout and bookings pages"): the
 * same checkout page, then what the payment is for and the time left to pay.
 */
const checkoutPayRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/checkout/pay',
  validateSearch: tokenSearch,
  component: function CheckoutPay() {
    const { token } = checkoutPayRoute.useSearch();
    return (
      <>
        <CheckoutPage key={token} token={token ?? ''} />
        <BookingPaymentDetails key={`booking-${token}`} token={token ?? ''} />
      </>
    );
  },
});

const checkoutResultRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/checkout/result',
  validateSearch: tokenSearch,
  component: function CheckoutResult() {
    const { token } = checkoutResultRoute.useSearch();
    return <CheckoutResultPage key={token} token={token ?? ''} />;
  },
});

const bookingCheckoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/bookings/checkout',
  validateSearch: z.object({
    hold: z.string().max(64).optional().catch(undefined),
    email: z.string().max(320).optional().catch(undefined),
  }),
  component: function BookingCheckout() {
    const { hold, email } = bookingCheckoutRoute.useSearch();
    return <BookingCheckoutPage key={hold} hold={hold ?? ''} email={email} />;
  },
});

const bookingManageRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/bookings/manage/$token',
  component: function BookingManage() {
    const { token } = bookingManageRoute.useParams();
    return <BookingManagePage key={token} token={token.slice(0, 100)} />;
  },
});

export const checkoutRoutes = [
  checkoutRoute,
  checkoutTokenRoute,
  checkoutPayRoute,
  checkoutResultRoute,
  bookingCheckoutRoute,
  bookingManageRoute,
] as const;
