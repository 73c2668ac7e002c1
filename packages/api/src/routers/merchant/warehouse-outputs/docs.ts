/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: shipping'];

export const BASE = '/merchant/shipping/warehouse-outputs';

export const OPERATOR =
  'Needs `fulfillment:operate` (Owner and Admin hold it; Staff need the group, else `403`).';

export const SELECTION =
  'Body `{ fulfillmentIds }`: 1 to 50 distinct fulfillment ids (`ful_…`), else `400 VALIDATION_FAILED` (a repeat at `fulfillmentIds.N`); unknown keys are `400`. The output follows the request order. Unknown ids and ids of another organization are both `NOT_FOUND`. One refused id refuses the whole selection, every refused id listed in request order: nothing is produced and nothing is audited. Changes nothing but the audit log. Served by REST only (over /trpc it is `404`); `Cache-Control: no-store`.';
