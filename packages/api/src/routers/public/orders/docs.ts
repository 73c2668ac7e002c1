/** OpenAPI text the area's procedures share. */

export const TAGS = ['Public: orders'];

export const READS_SWITCH = [
  'Off by default: listing or reading a store’s orders with only its slug would expose its customers, so these reads answer `404 RESOURCE_NOT_FOUND` until the merchant sets the settings key `apiSettings.publicOrderReadsEnabled` to `true` (`PATCH /merchant/settings`).',
  '`notes` (merchant-internal) is never part of a public read. A shopper holding the `o1_` token of their confirmation email reads their own order with `POST /public/order-status` instead, whatever the switch.',
].join(' ');
