/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: fulfillments'];

export const BASE = '/merchant/orders/{orderId}/fulfillments/{fulfillmentId}';

export const ADDRESSING =
  '`{orderId}` is the order (`ord_…`) or its sales record (`sal_…`); an unknown or foreign id, or a fulfillment of another order, is the neutral `404 RESOURCE_NOT_FOUND`.';

export const OWNER_OR_ADMIN = 'Owner or Admin; Staff get `403 FORBIDDEN` whatever their groups.';
