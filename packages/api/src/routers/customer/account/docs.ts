/** OpenAPI text the area's procedures share. */

export const PROFILE_TAGS = ['Customer: profile'];

export const ADDRESS_TAGS = ['Customer: addresses'];

export const ORDER_TAGS = ['Customer: orders'];

export const ORDER_READ =
  'An order is the customer’s when its `customerEmail` equals their verified email (case-insensitive). A legacy order (`POST /public/orders`, which anyone can send with any email) shows only once the merchant has confirmed it: status `CONFIRMED`, `PROCESSING` or `COMPLETED`; until then, and when cancelled, it is absent (a `404` when addressed). It carries `orderReference` (the primary address), `orderNumber` (display), lines, totals, `status`, `paymentStatus`, `fulfillmentStatus` and `shipments[]` (its `SHIPPED` and `DELIVERED` fulfillments, oldest first: status, carrier, tracking, `shippedAt`, `deliveredAt`, the units shipped; never postage, charges, plans or cancelled ones); merchant notes are never shown.';

export const NEUTRAL_404 =
  'An unknown, malformed, another store’s or another customer’s value is the same neutral `404 RESOURCE_NOT_FOUND`.';
