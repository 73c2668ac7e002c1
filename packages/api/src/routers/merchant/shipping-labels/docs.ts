/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: fulfillments'];

export const ADDRESSING =
  '`{orderId}` is the order (`ord_…`) or its sales record (`sal_…`); an unknown or foreign id, or a purchase of another order, is the neutral `404 RESOURCE_NOT_FOUND`.';

export const RECONCILIATION =
  '`reconciliation { status, allowed, allowedAfter, attempts, lastCheckedAt, outcome }` is derived on every read: `NOT_REQUIRED` (settled by its own call), `IN_FLIGHT` (`PENDING`, claimed less than `max(120 s, 2 × CARRIER_TIMEOUT_MS)` ago), `ALLOWED` (`UNCERTAIN`, or `PENDING` past that window), `COOLING_DOWN` (as `ALLOWED`, but a reconcile ran less than 30 s ago; `allowedAfter`), `RESOLVED` (settled by a reconcile; `outcome` `PURCHASED` or `NOT_PURCHASED`).';
