/**
 * Bookings: booking services, resources, availability, holds and bookings. Pure services over
 * Kysely, like catalog and orders; the tRPC routers in @commerce/api expose them. This entry point
 * lists what the API, the gateway, the worker and the benches use; everything else is internal.
 */

export type { ClaimArrays } from './availability/capacity.ts';
export type { BookableService } from './availability/rules.ts';
export { availabilityRulesSchema, parseInstant } from './availability/schemas.ts';
export { searchSlots } from './availability/search.ts';
export { searchAvailability } from './availability/search-availability.ts';
export {
  availabilitySearchRequestSchema,
  availabilitySearchResultSchema,
} from './availability/search-schemas.ts';
export { validateSearch } from './availability/validate.ts';
export { type BookingPaymentReport, checkBookingPayments } from './bookings/booking-payments.ts';
export {
  bookingDetailSchema,
  type MerchantBookingDetail,
  merchantBookingDetailSchema,
  readBookingDetail,
} from './bookings/booking-read.ts';
export { settleBookingPayment } from './bookings/booking-settlement.ts';
export { convertHold } from './bookings/convert-hold/convert-hold.ts';
export {
  conversionSchema,
  convertHoldInputSchema,
  convertHoldPathSchema,
} from './bookings/convert-schemas.ts';
export { createMerchantBooking } from './bookings/create-booking.ts';
export { cancelRequestInputSchema } from './bookings/customer-action-schemas.ts';
export {
  type CustomerActionRequest,
  getCustomerBooking,
  getGuestBooking,
  listCustomerBookings,
  requestCustomerBookingChange,
  requestGuestBookingChange,
} from './bookings/customer-bookings.ts';
export {
  type CustomerActionResult,
  customerActionResultSchema,
  customerBookingIdInputSchema,
  customerBookingListQuerySchema,
  customerBookingSummarySchema,
  guestTokenInputSchema,
  rescheduleRequestInputSchema,
} from './bookings/customer-schemas.ts';
export {
  assertBookingVisible,
  type BookingViewer,
  listMerchantBookings,
} from './bookings/merchant-access.ts';
export {
  approveBookingInputSchema,
  assigneesInputSchema,
  bookingIdInputSchema,
  changeRequestActionInputSchema,
  createMerchantBookingInputSchema,
  decideBookingInputSchema,
  declineChangeRequestInputSchema,
  merchantBookingListQuerySchema,
  merchantBookingSummarySchema,
  rescheduleBookingInputSchema,
} from './bookings/merchant-schemas.ts';
export type { BookingNotifyContext } from './bookings/notify.ts';
export { bookingManagePath } from './bookings/notify.ts';
export { paymentLinkPathSchema, paymentLinkSchema, sendBookingPaymentLink } from './bookings/payment-link.ts';
export {
  bookingPaymentSummarySchema,
  bookingPaymentTokenInputSchema,
  readBookingPaymentSummary,
} from './bookings/payment-summary.ts';
export { expireBookingPaymentWindows, startBookingSweeps } from './bookings/sweeps.ts';
export { approveBooking } from './bookings/transitions/approve-booking.ts';
export { approveChangeRequest } from './bookings/transitions/approve-change-request.ts';
export { cancelBooking } from './bookings/transitions/cancel-booking.ts';
export { declineBooking } from './bookings/transitions/decline-booking.ts';
export { declineChangeRequest } from './bookings/transitions/decline-change-request.ts';
export { rescheduleBooking } from './bookings/transitions/reschedule-booking.ts';
export { setBookingAssignees } from './bookings/transitions/set-booking-assignees.ts';
export type { BookingTransitionContext, TransitionBy } from './bookings/transitions/transition-steps.ts';
export { retryOnAbort, setClaimClock } from './capacity/capacity-lock.ts';
export { type CapacityReport, checkCapacity } from './capacity/check-capacity.ts';
export type { BookingWriteContext } from './context.ts';
export { createDistanceProvider } from './delivery/create-distance-provider.ts';
export {
  type DistanceProvider,
  DistanceUnavailableError,
  sandboxDistanceProvider,
} from './delivery/distance-provider.ts';
export { readHoldForCheckout } from './holds/hold-checkout-read.ts';
export { createHold, releaseHold } from './holds/holds.ts';
export {
  createHoldInputSchema,
  holdCheckoutSchema,
  holdPathInputSchema,
  holdSchema,
} from './holds/schemas.ts';
export { addBlackout, removeBlackout } from './resources/blackouts.ts';
export { listResources } from './resources/list-resources.ts';
export { getResource } from './resources/resource-read.ts';
export {
  blackoutInputSchema,
  blackoutPathInputSchema,
  blackoutSchema,
  createResourceInputSchema,
  resourceActionInputSchema,
  resourceIdInputSchema,
  resourceListQuerySchema,
  resourceSchema,
  updateResourceInputSchema,
} from './resources/schemas.ts';
export { createResource, setResourceArchived, updateResource } from './resources/write-resource.ts';
export { listPublicServices, listServices } from './services/list-services.ts';
export {
  createServiceInputSchema,
  publicServiceListQuerySchema,
  publicServiceSchema,
  serviceActionInputSchema,
  serviceIdInputSchema,
  serviceListQuerySchema,
  serviceSchema,
  serviceSlugInputSchema,
  updateServiceInputSchema,
} from './services/schemas.ts';
export { getPublicService, getService } from './services/service-read.ts';
export { archiveService, createService, restoreService, updateService } from './services/write-service.ts';
