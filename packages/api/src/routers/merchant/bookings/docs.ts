/** OpenAPI text the merchant booking procedures share. */

export const TAGS = ['Merchant: bookings'];

export const KEY_OPTIONAL =
  'With the optional `x-idempotency-key`, the same key and body replay the outcome (the booking read fresh).';

export const STAFF_MUTATION =
  'Staff need `bookings:manage` and act only on bookings assigned to them (others are the neutral `404`).';
