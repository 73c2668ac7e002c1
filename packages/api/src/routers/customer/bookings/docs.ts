/** OpenAPI text the area's procedures share. */
import type { ErrorCode } from '@commerce/core';

export const ACCOUNT_TAGS = ['Customer: bookings'];

export const GUEST_TAGS = ['Customer: guest bookings'];

export const OWNED =
  'A booking is the customer’s when linked to their account or placed with their verified email (case-insensitive). An unknown, malformed, another store’s or another customer’s booking id is the same neutral `404 RESOURCE_NOT_FOUND`.';

export const TOKEN =
  'The `m1_` token of the booking’s emails is the credential (no sign-in), scoped to its store: the `x-organization-slug` header is required. It expires 30 days after the booking ends; a newer email’s token revokes an unused older one. An unknown, malformed, expired, revoked or another store’s token is the same neutral `404 RESOURCE_NOT_FOUND`. The token never appears in logs (they carry the route template).';

export const POLICY = [
  'The service’s change policy decides, per action: `SELF_SERVICE` applies at once before `startsAt` − `cutoffMinutes` (whole days count local days) and requests after; `REQUEST` requests; `NONE` is `409 INVALID_STATE_TRANSITION` with `details.reason: POLICY`. `REQUESTED` and `PENDING_PAYMENT` bookings are cancelled at once and never rescheduled (`reason: STATUS`). Once the booking has started no request is taken (`BOOKING_STARTED`: the worker withdraws pending requests at the start); from `endsAt` on nothing is (`BOOKING_ENDED`); a terminal booking takes nothing (`STATUS`).',
  'A request records a `PENDING` change request (no capacity is held), emails the merchant `CHANGE_REQUESTED` and the customer `CHANGE_REQUEST_RECEIVED`, and awaits the merchant; one pending per booking, another is `409 INVALID_STATE_TRANSITION` with `details.reason: CHANGE_REQUEST_PENDING`.',
].join('\n\n');

export const CANCEL =
  'Body `{ reason? }` (at most 500). `APPLIED`: the booking is `CANCELLED` at once, its claim released (no automatic refund; an open payment is closed), the customer emailed `CANCELLED` and the merchant `CUSTOMER_CANCELLED`; a pending change request is withdrawn. Answers `200 { outcome: APPLIED | REQUESTED, booking }`, the booking as it is after.';

export const RESCHEDULE =
  'Body `{ startsAt, endsAt, reason? }`: ISO 8601 instants with an offset on a whole minute; `endsAt` keeps the booked duration: a booking of whole local days (a multiple of 1,440 minutes, the same wall time n days later) keeps its wall times across a daylight-saving change, any other its elapsed minutes; else `400` on `endsAt`. The interval is checked as the move itself would be, for a request too: its shape on the service grid (`400`), hours, closures, lead time and maximum advance (`409 BOOKING_SLOT_UNAVAILABLE`), free capacity with the booking’s own claim released (`409 CAPACITY_UNAVAILABLE`). `APPLIED`: the booking moves at once (its price is kept) and the customer is emailed `RESCHEDULED`. Answers `200 { outcome, booking }`.';

export const GUEST_ONCE =
  'One token makes one change: afterwards its detail shows every action `NONE`; the same route with the same body (whatever the key order) answers the recorded result again with `idempotent-replayed: true` and changes nothing; any other change is `409 INVALID_STATE_TRANSITION` with `details.reason: TOKEN_CONSUMED`. Concurrent requests with one token queue on it, so the change happens once. A refused change (`409`, `400`) records nothing: the token stays usable. The emails a change sends carry a fresh token for the next change; the used one stays readable until it expires.';

export const ACTION_ERRORS: ErrorCode[] = [
  'INVALID_STATE_TRANSITION',
  'BOOKING_SLOT_UNAVAILABLE',
  'CAPACITY_UNAVAILABLE',
  'STALE_STATE',
];

export const KEY_OPTIONAL =
  'Header `x-idempotency-key` (alias `Idempotency-Key`) is optional: with it, the same key and body replay the outcome (`idempotent-replayed: true`, the booking read fresh), another body is `409 IDEMPOTENCY_KEY_REUSED`. Without it a repeated change is refused by state (`409`), never made twice.';
