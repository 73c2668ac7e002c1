/**
 * Bookings (CONTRACT-bookings.md, section 14): booking services, resources,
 * availability, holds and bookings. Pure services over Kysely, like catalog
 * and orders; the tRPC router in @commerce/api exposes them.
 */

export * from './availability/assign.ts';
export * from './availability/capacity.ts';
export * from './availability/rules.ts';
export * from './availability/schemas.ts';
export * from './availability/search.ts';
export * from './availability/search-availability.ts';
export * from './availability/search-schemas.ts';
export * from './availability/validate.ts';
export * from './bookings/booking-claims.ts';
export * from './bookings/booking-codes.ts';
export * from './bookings/booking-payments.ts';
export * from './bookings/booking-read.ts';
export * from './bookings/booking-settlement.ts';
export * from './bookings/booking-tax.ts';
export * from './bookings/change-requests.ts';
export * from './bookings/convert-hold/convert-hold.ts';
export * from './bookings/convert-schemas.ts';
export * from './bookings/create-booking.ts';
export * from './bookings/customer-bookings.ts';
export * from './bookings/customer-schemas.ts';
export * from './bookings/guest-access.ts';
export * from './bookings/history.ts';
export * from './bookings/management-tokens.ts';
export * from './bookings/merchant-access.ts';
export * from './bookings/merchant-schemas.ts';
export * from './bookings/notify.ts';
export * from './bookings/payment-link.ts';
export * from './bookings/policy.ts';
export * from './bookings/sweeps.ts';
export * from './bookings/transitions/approve-booking.ts';
export * from './bookings/transitions/approve-change-request.ts';
export * from './bookings/transitions/cancel-booking.ts';
export * from './bookings/transitions/decline-booking.ts';
export * from './bookings/transitions/decline-change-request.ts';
export * from './bookings/transitions/expire-booking.ts';
export * from './bookings/transitions/reschedule-booking.ts';
export * from './bookings/transitions/set-booking-assignees.ts';
export * from './bookings/transitions/transition-steps.ts';
export * from './capacity/index.ts';
export type * from './context.ts';
export * from './delivery/index.ts';
export * from './holds/index.ts';
export * from './pricing/price.ts';
export * from './resources/index.ts';
export * from './services/index.ts';
export * from './time/zone.ts';
