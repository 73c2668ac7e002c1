/**
 * The browser-safe part of @commerce/orders (`@commerce/orders/schemas`): the customer-facing input
 * schemas a storefront validates its forms with. Nothing here reaches the database (the modules
 * below import its types only).
 */

export { sandboxPaymentConfirmInputSchema } from './checkout/sandbox-payment-schemas.ts';
export { repriceCheckoutSessionInputSchema } from './checkout/schemas.ts';
export { createReturnByReferenceInputSchema, RETURN_REASONS } from './returns/schemas.ts';
