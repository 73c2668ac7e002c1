/** OpenAPI text the area's procedures share. */

export const TAGS = ['Public: checkout'];

export const TOKEN_NOTE =
  'The `{token}` is the `c1_` capability of the create response. A malformed, unknown, expired or other store’s token is one neutral `404 RESOURCE_NOT_FOUND`.';

export const SESSION_NOTE =
  'Answers the session: `status` (`OPEN`, `BOUND`, `AWAITING_PAYMENT`, `PAYMENT_FAILED`, `COMPLETED`, or `CANCELLED` when the merchant cancelled its order before it was paid), the lines priced from the catalog (`unitPriceInCents`: the variant’s sale price, else its price, else the item’s price; `type`: `PRODUCT` for a `SALE` item, `SERVICE` for a `SERVICE` item), `shippingRequired` and `shippingOptions` (only for a cart with a `PRODUCT` line: the active rates of the active zones listing `shippingCountry` whose `minimumSubtotalInCents` the subtotal reaches), `shippingRateId` (the one chosen, else the current one while it stays an option, else the cheapest), `subtotalInCents`, `shippingInCents`, `taxInCents`, `taxIncluded`, `totalInCents`, `currency` (the store’s `checkoutSettings.currency`), `expiresAt`.';

export const LINES_NOTE =
  'A line naming a `RENTAL` item is `400 VALIDATION_FAILED` (`lines.N.itemId`): rentals are booked through a booking service, never bought.';
