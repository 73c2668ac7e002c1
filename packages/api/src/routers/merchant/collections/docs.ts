/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: collections'];

export const SLUG_RULE =
  '`slug` is unique per organization (1 to 100 characters, lowercase letters and digits in groups joined by single hyphens): one another collection holds, archived or not, is `409 SLUG_TAKEN`.';
