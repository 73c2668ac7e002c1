/** OpenAPI text the shipment cancellation procedures share. */

export const TAGS = ['Merchant: fulfillments'];

export const BASE = '/merchant/orders/{orderId}/fulfillments/{fulfillmentId}';

export const ADDRESSING =
  '`{orderId}` is the order (`ord_…`) or its sales record (`sal_…`); any other id, or a fulfillment of another order, is the neutral `404`.';

export const OWNER_OR_ADMIN = 'Owner or Admin, whatever a Staff member’s groups.';
