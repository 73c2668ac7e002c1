/** OpenAPI text the public booking service procedures share. */

export const TAGS = ['Public: bookings'];

export const PUBLIC_SERVICE =
  'Only `ACTIVE` services are public, without their merchant-only fields; `pricing` is a preview in the store currency.';
