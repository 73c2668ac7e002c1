/**
 * The checkout, payment and booking routes' own input schemas, for validating the forms before
 * they are sent (pure zod modules only, as in schemas.ts: vite.config.ts fails the build if server
 * code reaches the bundle).
 */

export { convertHoldInputSchema } from '../../../../packages/bookings/src/bookings/convert-schemas.ts';
export { cancelRequestInputSchema } from '../../../../packages/bookings/src/bookings/customer-action-schemas.ts';
export { COUNTRY_CODES } from '../../../../packages/catalog/src/shipping/countries.ts';
export { sandboxPaymentConfirmInputSchema } from '../../../../packages/orders/src/checkout/sandbox-payment-schemas.ts';
export { repriceCheckoutSessionInputSchema } from '../../../../packages/orders/src/checkout/schemas.ts';
