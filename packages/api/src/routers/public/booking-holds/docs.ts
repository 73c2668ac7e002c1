/** OpenAPI text the area's procedures share. */

export const TAGS = ['Public: bookings'];

export const KEY =
  'Header `x-idempotency-key` (alias `Idempotency-Key`; 16 to 255 of `A-Z a-z 0-9 _ . : -`) is required, else `400` (`headers.x-idempotency-key`).';
