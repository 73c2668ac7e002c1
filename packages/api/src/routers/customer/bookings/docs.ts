import type { ErrorCode } from '@commerce/core';

/** OpenAPI text the customer and guest booking procedures share. */

export const ACCOUNT_TAGS = ['Customer: bookings'];

export const GUEST_TAGS = ['Customer: guest bookings'];

export const OWNED =
  'A booking is the customer’s when linked to their account or placed with their verified email (any case); any other booking id is the neutral `404`.';

export const TOKEN =
  'The `m1_` token of the booking’s emails is the credential (no sign-in), scoped to its store: send `x-organization-slug`. It expires 30 days after the booking ends, and a newer email’s token revokes an unused older one; an unknown, expired or revoked token is the neutral `404`.';

export const POLICY =
  'The service’s change policy decides each action: applied at once, requested from the merchant (a pending change request, one per booking, capacity not held), or refused (`409 INVALID_STATE_TRANSITION`, `details.reason` says why). A `REQUESTED` or `PENDING_PAYMENT` booking is cancelled at once and never rescheduled; a started booking takes no request.';

export const CANCEL =
  'Applied: the booking is cancelled, its claim released and an open payment closed; there is no automatic refund. Answers the outcome and the booking as it is after.';

export const RESCHEDULE =
  'The new interval keeps the booked duration (a booking of whole local days keeps its wall times across a daylight-saving change) and is checked as the move itself would be, for a request too. Applied: the booking moves at once and keeps its price.';

export const GUEST_ONCE =
  'One token makes one change: the same request again answers the recorded result with `idempotent-replayed: true`; any other change is `409` (`details.reason: TOKEN_CONSUMED`). A refused change records nothing. The emails a change sends carry a fresh token.';

export const ACTION_ERRORS: ErrorCode[] = [
  'INVALID_STATE_TRANSITION',
  'BOOKING_SLOT_UNAVAILABLE',
  'CAPACITY_UNAVAILABLE',
  'STALE_STATE',
];

export const KEY_OPTIONAL =
  'With the optional `x-idempotency-key`, the same key and body replay the outcome (the booking read fresh); without it a repeated change is refused by state, never made twice.';
