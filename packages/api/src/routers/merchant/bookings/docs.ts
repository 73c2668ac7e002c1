/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: bookings'];

export const KEY_OPTIONAL =
  'Header `x-idempotency-key` (alias `Idempotency-Key`) is optional: with it, the same key and body replay the outcome (`idempotent-replayed: true`, the booking read fresh), another body is `409 IDEMPOTENCY_KEY_REUSED`.';

export const STAFF_MUTATION =
  'Owners and Admins; Staff need `bookings:manage` (else `403`) and act only on bookings assigned to them (others are the neutral `404`).';

export const NOTIFY = '`notifyCustomer` (default true) emails the customer a fresh management link.';

export const ANSWER = 'Answers `200` with the merchant booking detail.';
