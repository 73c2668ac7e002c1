/**
 * The browser-safe part of @commerce/bookings (`@commerce/bookings/schemas`): the customer-facing
 * input schemas a storefront validates its forms with. Nothing here reaches the database.
 */
export { convertHoldInputSchema } from './bookings/convert-schemas.ts';
export { cancelRequestInputSchema } from './bookings/customer-action-schemas.ts';
