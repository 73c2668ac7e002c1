import { AppError } from '@commerce/core';

/**
 * The deprecated `PATCH /merchant/orders/{id}/fulfillment-status`: fulfillment
 * status is derived from fulfillment records, so every call is refused, before
 * anything is read or validated, and nothing changes.
 */
export function rejectFulfillmentStatusWrite(): never {
  throw new AppError(
    'LINE_FULFILLMENT_REQUIRED',
    'Fulfillment status is derived from fulfillment records; create a fulfillment for the order lines instead',
  );
}
