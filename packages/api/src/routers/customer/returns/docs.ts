/** OpenAPI text the customer return procedures share. */

export const TAGS = ['Customer: returns'];

export const OWN_ORDER =
  'The order must be one of yours (its `customerEmail` is your verified email); any other order is the neutral `404`.';

export const ELIGIBILITY =
  'Shipped units of `PRODUCT` lines can be returned while the return window is open (`checkoutSettings.returnWindowDays` from the last delivery, else the last shipment), less what live returns already claim. Returns never change fulfillments.';

export const LIST = `\`eligibility\` says whether a return can be requested now and what each line may return. ${ELIGIBILITY} ${OWN_ORDER}`;

export const ISSUE = [
  'Issues an `a1_` token with which anyone may request one return of the lines eligible now, without signing in (hand it to a drop-off point or your own server). It is in this answer only (stored hashed), expires after 24 hours or when the return window closes, and a new token for the same order and purpose revokes your unused earlier ones.',
  OWN_ORDER,
].join('\n\n');
