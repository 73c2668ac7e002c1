/** OpenAPI text the merchant booking service procedures share. */

export const TAGS = ['Merchant: booking services'];

export const ACTIVATION =
  'An `ACTIVE` service must pass the activation check (every requirement with an active resource, open hours or fixed slots, complete pricing): else `400` naming each gap.';
