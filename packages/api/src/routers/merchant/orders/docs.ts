/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: orders'];

export const ORDER_READ =
  'The order carries `salesRecordId` (the sales record it projects), its typed lines in `items`, its totals in integer cents, `notes`, `status`, `paymentStatus` and `fulfillmentStatus` (derived from fulfillment records; `UNFULFILLED` until one exists).';
