/** OpenAPI text the account procedures share. */

export const PROFILE_TAGS = ['Customer: profile'];

export const ADDRESS_TAGS = ['Customer: addresses'];

export const ORDER_TAGS = ['Customer: orders'];

export const ORDER_READ =
  'An order is the customer’s when its `customerEmail` is their verified email (any case). A legacy order shows only once the merchant confirmed it (anyone can send one with any email). Merchant notes are never shown.';

export const NEUTRAL_404 =
  'An unknown, malformed, another store’s or another customer’s value is the same neutral `404 RESOURCE_NOT_FOUND`.';
