/** OpenAPI text the carrier procedures share. */

export const TAGS = ['Merchant: shipping'];

export const SANDBOX_ONLY =
  'Only while the configured carrier is the sandbox (`CARRIER_PROVIDER=sandbox`; a production server only with `ALLOW_SANDBOX_IN_PRODUCTION=true`); otherwise `404`. Owner or Admin.';
