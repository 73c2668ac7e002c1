/** OpenAPI text the area's procedures share. */

export const ITEMS = ['Merchant: items'];

export const VARIANTS = ['Merchant: variants'];

export const ITEM_BODY = [
  'Body: `slug` (required on create; lowercase letters and digits in words joined by single hyphens, at most 100, unique per organization), `name` (1 to 200, trimmed), `type` (`RENTAL`, `SALE` or `SERVICE`; required on create), `status` (`ACTIVE` or `DRAFT`, default `DRAFT`; `ARCHIVED` is `400`: use the archive route), `description` (at most 10,000 characters or null), `tags` (at most 50 strings of 1 to 50 characters, trimmed; duplicates stored once), `priceInCents` (integer 0 or more, or null), `metafields` (a JSON object of at most 100 keys and 16,384 bytes; keys starting with `__` are reserved: `400`), `sortOrder` (integer; default 0), `shippingWeightGrams`, `shippingLengthMm`, `shippingWidthMm`, `shippingHeightMm` (integers of at least 1, or null for unknown; merchant reads only, never on public reads).',
  'Unknown keys are `400 VALIDATION_FAILED`.',
].join(' ');
