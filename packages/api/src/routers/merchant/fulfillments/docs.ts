/** OpenAPI text the fulfillment procedures share. */

export const TAGS = ['Merchant: fulfillments'];

export const BASE = '/merchant/commerce/orders/{recordId}';

export const ADDRESSING =
  '`{recordId}` is the sales record (`sal_…`) or its legacy order (`ord_…`): either names the same record. Any other id is the neutral `404`.';

export const OPERATOR = 'Needs `fulfillment:operate`.';

export const KEY_REQUIRED =
  'The `x-idempotency-key` is required: the same key and body (either id of the pair) replay the recorded answer and change nothing.';

export const FULFILLABLE =
  'A cancelled order, or a record awaiting or failing payment, is `409 ORDER_NOT_FULFILLABLE`.';

export const LOCKED =
  'The order, the record and the lines are locked in one transaction; more than a line has left is `409 OVER_FULFILLMENT` and nothing changes.';
