/** OpenAPI text the collection procedures share. */

export const TAGS = ['Merchant: collections'];

export const SLUG_RULE =
  'A slug is unique in the organization, archived collections included (`409 SLUG_TAKEN`).';
