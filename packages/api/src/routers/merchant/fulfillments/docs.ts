/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: fulfillments'];

export const BASE = '/merchant/commerce/orders/{recordId}';

export const ADDRESSING =
  '`{recordId}` is the sales record (`sal_…`, the `salesRecordId` of merchant order reads) or its legacy order (`ord_…`): either id of the pair names the same record. An unknown id, another organization’s, or a fulfillment of another record is the neutral `404 RESOURCE_NOT_FOUND`.';

export const OPERATOR =
  'Needs `fulfillment:operate` (Owner and Admin hold it; Staff need the group, else `403`).';

export const KEY_REQUIRED =
  'Header `x-idempotency-key` (alias `Idempotency-Key`; 16 to 255 of `A-Z a-z 0-9 _ . : -`) is required, else `400` at `headers.x-idempotency-key`: the same key and body (either id of the pair) replay the recorded answer with `idempotent-replayed: true` and change nothing; another body is `409 IDEMPOTENCY_KEY_REUSED` (`details.fields`). Kept 30 days.';

export const LINES =
  '`lines`: 1 to 100 `{ lineId, quantity }`, each a distinct PRODUCT line of this record, `quantity` an integer from 1 to 100000; a repeated line, a line of another record or a non-PRODUCT line is `400 VALIDATION_FAILED` at `lines.N.lineId`. Unknown keys are `400`.';

export const FULFILLABLE =
  'A `CANCELLED` order, or a record whose `paymentStatus` is `AWAITING_PAYMENT` or `FAILED`, is `409 ORDER_NOT_FULFILLABLE` (`details.reason`).';

export const LOCKED =
  'The order, the record and the lines are locked in one transaction (lines in id order, then the variants); under those locks more than a line has left (`quantity − shipped − allocated`) is `409 OVER_FULFILLMENT`, `details.lines[{ lineId, requested, available }]`, and nothing changes.';

export const READ =
  'A fulfillment carries its fixed `lines`, `tracking`, `package` (a plan’s confirmed outer package, else null), `postage` (current) and `retiredPostage`, `notification` (from `SHIPPED`), timestamps and `version`. `origin` is `DIRECT`, `PLANNED` or `NATIVE_LABEL` (created by a label purchase); `postage.source` is `NATIVE` (bought here; `labelAvailable` once its document is stored), `EXTERNAL` or `LEGACY`; `cancellation` is the latest shipment cancellation (`cancel-prepared-shipment`) or null.';
