/** OpenAPI text the area's procedures share. */

export const TAGS = ['Public: catalog'];

export const PUBLIC_ITEM =
  'Only `ACTIVE`, unarchived items are public. Each item carries `salePriceInCents`, `ratingAverage` and `ratingCount` (published reviews) and `collectionIds` (its `ACTIVE`, unarchived collections); `metafields` never shows the keys starting with `__`, which are the service’s own.';
