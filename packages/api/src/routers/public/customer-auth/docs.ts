/** OpenAPI text the sign-in procedures share. */

export const TAGS = ['Customer: sign-in'];

export const NEUTRAL =
  'Always `200 { accepted: true }`, the same answer and work whether or not the email belongs to a customer. Rate-limited per client address and per email (RATE_LIMIT_SIGN_IN_*), for known and unknown emails alike.';
