import { customerAccountRouter } from './routers/customer/account/index.ts';
import { customerActionsRouter } from './routers/customer/actions/index.ts';
import { customerAuthRouter } from './routers/customer/auth/index.ts';
import { customerBookingsRouter, guestBookingsRouter } from './routers/customer/bookings/index.ts';
import { customerReturnsRouter } from './routers/customer/returns/index.ts';
import { merchantAuditLogsRouter } from './routers/merchant/audit-logs/index.ts';
import { merchantAuthRouter } from './routers/merchant/auth/index.ts';
import { merchantBookingPaymentLinksRouter } from './routers/merchant/booking-payment-links/index.ts';
import { merchantBookingResourcesRouter } from './routers/merchant/booking-resources/index.ts';
import { merchantBookingServicesRouter } from './routers/merchant/booking-services/index.ts';
import { merchantBookingsRouter } from './routers/merchant/bookings/index.ts';
import { merchantBoxPresetsRouter } from './routers/merchant/box-presets/index.ts';
import { merchantCarrierRouter } from './routers/merchant/carrier/index.ts';
import { merchantCollectionsRouter } from './routers/merchant/collections/index.ts';
import { merchantEmailTemplatesRouter } from './routers/merchant/email-templates/index.ts';
import { merchantFulfillmentsRouter } from './routers/merchant/fulfillments/index.ts';
import { merchantItemsRouter } from './routers/merchant/items/index.ts';
import { merchantMembershipsRouter } from './routers/merchant/memberships/index.ts';
import { merchantOnboardingRouter } from './routers/merchant/onboarding/index.ts';
import { merchantOrdersRouter } from './routers/merchant/orders/index.ts';
import { merchantPagesRouter } from './routers/merchant/pages/index.ts';
import { merchantReturnsRouter } from './routers/merchant/returns/index.ts';
import { merchantReviewsRouter } from './routers/merchant/reviews/index.ts';
import { merchantSettingsRouter } from './routers/merchant/settings/index.ts';
import { merchantShipmentCancellationsRouter } from './routers/merchant/shipment-cancellations/index.ts';
import { merchantShippingRouter } from './routers/merchant/shipping/index.ts';
import { merchantShippingLabelsRouter } from './routers/merchant/shipping-labels/index.ts';
import { merchantWarehouseOutputsRouter } from './routers/merchant/warehouse-outputs/index.ts';
import { merchantWebhookEndpointsRouter } from './routers/merchant/webhook-endpoints/index.ts';
import { platformOrganizationsRouter } from './routers/platform/organizations/index.ts';
import { platformSignupsRouter } from './routers/platform/signups/index.ts';
import { publicBookingAvailabilityRouter } from './routers/public/booking-availability/index.ts';
import { publicBookingCheckoutRouter } from './routers/public/booking-checkout/index.ts';
import { publicBookingHoldsRouter } from './routers/public/booking-holds/index.ts';
import { publicBookingServicesRouter } from './routers/public/booking-services/index.ts';
import { publicCheckoutRouter } from './routers/public/checkout/index.ts';
import { publicCollectionsRouter } from './routers/public/collections/index.ts';
import { publicCustomerAuthRouter } from './routers/public/customer-auth/index.ts';
import { publicItemsRouter } from './routers/public/items/index.ts';
import { publicLinkTokensRouter } from './routers/public/link-tokens/index.ts';
import { publicOrdersRouter } from './routers/public/orders/index.ts';
import { publicOrganizationRouter } from './routers/public/organization/index.ts';
import { publicPagesRouter } from './routers/public/pages/index.ts';
import { publicReviewsRouter } from './routers/public/reviews/index.ts';
import { publicSandboxPaymentsRouter } from './routers/public/sandbox-payments/index.ts';
import { publicShippingRouter } from './routers/public/shipping/index.ts';
import { publicSignupRouter } from './routers/public/signup/index.ts';
import { publicStockNotificationsRouter } from './routers/public/stock-notifications/index.ts';
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
    stockNotifications: publicStockNotificationsRouter,
    orders: publicOrdersRouter,
    checkout: publicCheckoutRouter,
    customerAuth: publicCustomerAuthRouter,
    bookingAvailability: publicBookingAvailabilityRouter,
    bookingServices: publicBookingServicesRouter,
    bookingHolds: publicBookingHoldsRouter,
    bookingCheckout: publicBookingCheckoutRouter,
    linkTokens: publicLinkTokensRouter,
    sandboxPayments: publicSandboxPaymentsRouter,
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
    boxPresets: merchantBoxPresetsRouter,
    carrier: merchantCarrierRouter,
    shippingLabels: merchantShippingLabelsRouter,
    shipmentCancellations: merchantShipmentCancellationsRouter,
    warehouseOutputs: merchantWarehouseOutputsRouter,
    orders: merchantOrdersRouter,
    fulfillments: merchantFulfillmentsRouter,
    returns: merchantReturnsRouter,
    bookingResources: merchantBookingResourcesRouter,
    bookingServices: merchantBookingServicesRouter,
    bookings: merchantBookingsRouter,
    bookingPaymentLinks: merchantBookingPaymentLinksRouter,
    webhookEndpoints: merchantWebhookEndpointsRouter,
  }),
  customer: router({
    auth: customerAuthRouter,
    account: customerAccountRouter,
    returns: customerReturnsRouter,
    actions: customerActionsRouter,
    bookings: customerBookingsRouter,
    guestBookings: guestBookingsRouter,
  }),
  platform: router({ organizations: platformOrganizationsRouter, signups: platformSignupsRouter }),
});

export type AppRouter = typeof appRouter;
