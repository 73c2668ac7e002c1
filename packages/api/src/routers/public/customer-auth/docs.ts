/** OpenAPI text the area's procedures share. */

export const TAGS = ['Customer: sign-in'];

export const NEUTRAL = [
  'Always `200 { accepted: true }`: the same body, headers and work whether or not the email belongs to a customer (the first verification creates the customer). The email is queued through the outbox as `CUSTOMER_AUTH`.',
  'Rate-limited per tenant and client address (`RATE_LIMIT_SIGN_IN_REQUESTS_PER_CLIENT`, default 30) and per tenant and email (`RATE_LIMIT_SIGN_IN_REQUESTS_PER_EMAIL`, default 5) per `RATE_LIMIT_SIGN_IN_WINDOW_SECONDS` (default 900): `429 RATE_LIMIT_EXCEEDED` with `Retry-After`, for known and unknown emails alike.',
].join('\n\n');
