/** OpenAPI text the area's procedures share. */

export const TAGS = ['Public: bookings'];

export const PUBLIC_SERVICE =
  'Only `ACTIVE` services are public. A public service has no `sortOrder`, `metafields` or archive fields, no notes on its closures, its delivery origin as `{ city, country }` only, and `AUTO` requirements without their pool; the requirements a customer may or must choose for list their ACTIVE resources as `resources[] { id, name }`. `pricing` is a preview (`authoritative: false`) in the store currency.';
