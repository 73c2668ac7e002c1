export { upsertVerifiedCustomer } from './accounts/upsert-verified-customer.ts';
export {
  createAddress,
  deleteAddress,
  getAddress,
  listAddresses,
  updateAddress,
} from './addresses/manage-addresses.ts';
export {
  addressIdInputSchema,
  addressListQuerySchema,
  createAddressInputSchema,
  customerAddressSchema,
  updateAddressInputSchema,
} from './addresses/schemas.ts';
export {
  resolvedLinkTokenSchema,
  resolveLinkToken,
  resolveLinkTokenInputSchema,
} from './link-tokens/resolve-link-token.ts';
export { startHousekeeping } from './maintenance/housekeeping.ts';
export {
  getCustomerOrderByNumber,
  getCustomerOrderByReference,
  listCustomerOrders,
} from './orders/customer-orders.ts';
export {
  customerOrderListQuerySchema,
  customerOrderNumberInputSchema,
  orderReferenceInputSchema,
} from './orders/schemas.ts';
export { getCustomerProfile } from './profile/get-profile.ts';
export { customerProfileSchema, updateCustomerProfileInputSchema } from './profile/schemas.ts';
export { updateCustomerProfile } from './profile/update-profile.ts';
export { clearedSessionCookie, readSessionCookie, sessionCookie } from './sessions/cookies.ts';
export { sessionIdOf } from './sessions/session-token.ts';
export { createSession, signOut, validateSessionToken } from './sessions/sessions.ts';
export { requestSignIn } from './sign-in/request-sign-in.ts';
export {
  customerSessionIssuedSchema,
  requestSignInInputSchema,
  signInRequestedSchema,
  verifyForm,
  verifySignInInputSchema,
} from './sign-in/schemas.ts';
export { verifySignIn } from './sign-in/verify-sign-in.ts';
