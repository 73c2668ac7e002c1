/**
 * The browser-safe part of @commerce/customers (`@commerce/customers/schemas`): the customer-facing
 * input schemas a storefront validates its forms with, and the reads they answer. Nothing here
 * reaches the database.
 */
export {
  type CreateAddressInput,
  type CustomerAddressRead,
  createAddressInputSchema,
  customerAddressSchema,
  type UpdateAddressInput,
  updateAddressInputSchema,
} from './addresses/schemas.ts';
export {
  type CustomerProfileRead,
  customerProfileSchema,
  type UpdateCustomerProfileInput,
  updateCustomerProfileInputSchema,
} from './profile/schemas.ts';
export {
  type RequestSignInInput,
  requestSignInInputSchema,
  verifySignInInputSchema,
} from './sign-in/schemas.ts';
