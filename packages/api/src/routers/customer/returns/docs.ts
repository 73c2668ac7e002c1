/** OpenAPI text the area's procedures share. */

export const TAGS = ['Customer: returns'];

export const OWN_ORDER =
  'The order must be one of yours: an order of the store whose `customerEmail` is your verified email. An unknown, malformed, another store’s or another customer’s order is the same neutral `404 RESOURCE_NOT_FOUND`.';

export const ELIGIBILITY =
  'A return can be requested for the shipped units of the `PRODUCT` lines of an order (units in `SHIPPED` or `DELIVERED` fulfillments, whatever the order status) while its return window is open: `checkoutSettings.returnWindowDays` days (default 30; 0 turns returns off) from the last delivery of the order, else its last shipment. Each line can be returned up to its shipped quantity less what live returns (`REQUESTED`, `APPROVED`, `RECEIVED`, `COMPLETED`) already claim; rejected and cancelled returns give their quantity back. Returns never change fulfillments.';

export const LIST = [
  'Your returns of the order, newest first, `{ data, nextCursor, eligibility }`: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50). `eligibility` says whether a return can be requested now, why not (`NOT_SHIPPED`, `RETURNS_DISABLED`, `WINDOW_CLOSED`, `NOTHING_TO_RETURN`), when the window closes, and per `PRODUCT` line the purchased, shipped and returnable quantities.',
  ELIGIBILITY,
  OWN_ORDER,
].join('\n\n');

export const ISSUE = [
  'Issues a return action token: `a1_` + 43 characters, bound to one `purpose`, to you, to this order and to the lines eligible now (with the quantity then left to return). Body `{ purpose }`; the only purpose is `RETURN_REQUEST`: whoever holds the token may request one return of those lines through `POST /customer/actions/{token}` without signing in (hand it to a drop-off point or your own server).',
  'The raw token is in this `201` answer only: it is never emailed and is stored only as a SHA-256 hash. It expires 24 hours after issue or when the return window closes, whichever comes first. Issuing a new token for the same order and purpose revokes your earlier unused ones. An order that cannot be returned now is `409 RETURN_NOT_ELIGIBLE` (`details { reason, windowEndsAt }`).',
  OWN_ORDER,
].join('\n\n');
