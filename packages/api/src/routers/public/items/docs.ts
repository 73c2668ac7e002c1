/** OpenAPI text the public item procedures share. */

export const TAGS = ['Public: catalog'];

export const PUBLIC_ITEM =
  'Only `ACTIVE`, unarchived items are public; `metafields` never shows the service’s own keys (those starting with `__`).';
