/**
 * The checkout, payment and booking routes' own input schemas, for validating the forms before
 * they are sent (the packages' browser-safe `./schemas` subpaths only, as in schemas.ts:
 * vite.config.ts fails the build if server code reaches the bundle).
 */

export { cancelRequestInputSchema, convertHoldInputSchema } from '@commerce/bookings/schemas';
export { COUNTRY_CODES } from '@commerce/catalog/schemas';
export {
  repriceCheckoutSessionInputSchema,
  sandboxPaymentConfirmInputSchema,
} from '@commerce/orders/schemas';
