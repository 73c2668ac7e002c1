/** OpenAPI text the warehouse output procedures share. */

export const TAGS = ['Merchant: shipping'];

export const BASE = '/merchant/shipping/warehouse-outputs';

export const OPERATOR = 'Needs `fulfillment:operate`.';

export const SELECTION =
  'The output follows the request order. One refused id refuses the whole selection (each refused id listed): nothing is produced or audited. Served by REST only (over /trpc it is `404`).';
