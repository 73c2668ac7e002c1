/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: shipping'];

export const SANDBOX_ONLY =
  'Only while the configured carrier is the sandbox (`CARRIER_PROVIDER=sandbox`, the default outside production; a production server runs it only with `ALLOW_SANDBOX_IN_PRODUCTION=true`, every answer then marked `x-sandbox`); otherwise `404 RESOURCE_NOT_FOUND`.';
