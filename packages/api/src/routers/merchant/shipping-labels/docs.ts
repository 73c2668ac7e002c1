/** OpenAPI text the shipping label procedures share. */

export const TAGS = ['Merchant: fulfillments'];

export const ADDRESSING =
  '`{orderId}` is the order (`ord_…`) or its sales record (`sal_…`); any other id, or a purchase of another order, is the neutral `404`.';

export const RECONCILIATION =
  '`reconciliation` is derived on every read: whether the purchase is settled, in flight, or may be reconciled now (or after a cool-down).';
