import { pageSchema } from '@commerce/core';
import { IDEMPOTENT_REPLAYED_HEADER, type MerchantUser, readIdempotencyKey } from '@commerce/db';
import {
  attachExternalPostage,
  attachExternalPostageInputSchema,
  cancelFulfillment,
  cancelFulfillmentInputSchema,
  createDirectFulfillment,
  createDirectFulfillmentInputSchema,
  deliverFulfillment,
  deliverFulfillmentInputSchema,
  directFulfillmentSchema,
  type FulfillmentContext,
  fulfillmentListQuerySchema,
  fulfillmentPathSchema,
  fulfillmentSchema,
  getFulfillment,
  handOffFulfillment,
  handOffFulfillmentInputSchema,
  listFulfillments,
  planFulfillment,
  planFulfillmentInputSchema,
  repairTracking,
  repairTrackingInputSchema,
} from '@commerce/fulfillment';
import { z } from 'zod';
import type { ApiContext } from '../../context.ts';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: fulfillments'];
const BASE = '/merchant/commerce/orders/{recordId}';

const operator = merchantProcedureWith('fulfillment:operate');

function fulfillmentContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): FulfillmentContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
    email: customerEmailConfig(ctx),
  };
}

const ADDRESSING =
  '`{recordId}` is the sales record (`sal_…`, the `salesRecordId` of merchant order reads) or its legacy order (`ord_…`): either id of the pair names the same record. An unknown id, another organization’s, or a fulfillment of another record is the neutral `404 RESOURCE_NOT_FOUND`.';
const OPERATOR = 'Needs `fulfillment:operate` (Owner and Admin hold it; Staff need the group, else `403`).';
const KEY_REQUIRED =
  'Header `x-idempotency-key` (alias `Idempotency-Key`; 16 to 255 of `A-Z a-z 0-9 _ . : -`) is required, else `400` at `headers.x-idempotency-key`: the same key and body (either id of the pair) replay the recorded answer with `idempotent-replayed: true` and change nothing; another body is `409 IDEMPOTENCY_KEY_REUSED` (`details.fields`). Kept 30 days.';
const LINES =
  '`lines`: 1 to 100 `{ lineId, quantity }`, each a distinct PRODUCT line of this record, `quantity` an integer from 1 to 100000; a repeated line, a line of another record or a non-PRODUCT line is `400 VALIDATION_FAILED` at `lines.N.lineId`. Unknown keys are `400`.';
const FULFILLABLE =
  'A `CANCELLED` order, or a record whose `paymentStatus` is `AWAITING_PAYMENT` or `FAILED`, is `409 ORDER_NOT_FULFILLABLE` (`details.reason`).';
const LOCKED =
  'The order, the record and the lines are locked in one transaction (lines in id order, then the variants); under those locks more than a line has left (`quantity − shipped − allocated`) is `409 OVER_FULFILLMENT`, `details.lines[{ lineId, requested, available }]`, and nothing changes.';
const READ =
  'A fulfillment carries its fixed `lines`, `tracking`, `package` (a plan’s confirmed outer package, else null), `postage` (current) and `retiredPostage`, `notification` (from `SHIPPED`), timestamps and `version`. `origin` is `DIRECT`, `PLANNED` or `NATIVE_LABEL` (created by a label purchase); `postage.source` is `NATIVE` (bought here; `labelAvailable` once its document is stored), `EXTERNAL` or `LEGACY`; `cancellation` is the latest shipment cancellation (`cancel-prepared-shipment`) or null.';

export const merchantFulfillmentsRouter = router({
  list: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: `${BASE}/fulfillments`,
        tags: TAGS,
        summary: "A record's fulfillments, oldest first",
        description: [
          `Open to any member. ${ADDRESSING}`,
          'Every fulfillment of the record, cancelled ones included, oldest first (`createdAt`, then `id`), keyset-paginated: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor naming no fulfillment of the record is `400`.',
          READ,
        ].join('\n\n'),
      },
    })
    .input(fulfillmentListQuerySchema)
    .output(pageSchema(fulfillmentSchema))
    .query(({ ctx, input }) => listFulfillments(ctx.db, ctx.tenant.organizationId, input)),

  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: `${BASE}/fulfillments/{fulfillmentId}`,
        tags: TAGS,
        summary: 'A fulfillment',
        description: `Open to any member. ${ADDRESSING} ${READ}`,
      },
    })
    .input(fulfillmentPathSchema)
    .output(fulfillmentSchema)
    .query(({ ctx, input }) => getFulfillment(ctx.db, ctx.tenant.organizationId, input)),

  createDirect: operator
    .meta({
      openapi: {
        method: 'POST',
        path: `${BASE}/fulfillments`,
        tags: TAGS,
        summary: 'Ship units now (direct fulfillment)',
        description: [
          `${OPERATOR} ${ADDRESSING} ${KEY_REQUIRED}`,
          `Body: ${LINES} \`notifyCustomer\` (boolean, required, no default); \`tracking?\` \`{ carrier (1 to 50), trackingNumber (1 to 100 letters, digits, spaces, hyphens), trackingUrl? (https, at most 2000) }\`; \`shippedAt?\` (ISO 8601 with an offset, not in the future, not before the order was created; default now); \`note?\` (1 to 500, merchant-internal).`,
          `${FULFILLABLE} ${LOCKED}`,
          "Answers `201` with the `SHIPPED` fulfillment and `recordFulfillmentStatus`, the record's and its legacy order's `fulfillmentStatus` as this transaction rewrote it (`UNFULFILLED`, `PARTIALLY_FULFILLED` or `FULFILLED` by the PRODUCT lines' shipped units). Tracked variants lose the units once (an `inventory_movements` row per line; units the order's checkout reservation holds are drawn from it; stock stops at zero, the rest recorded as shortfall). `notifyCustomer: true` queues one `ORDER_SHIPPED` email to the customer; `false` records `SUPPRESS`. Audited as `fulfillment.created`.",
        ].join('\n\n'),
      },
      successStatus: 201,
      errors: ['IDEMPOTENCY_KEY_REUSED', 'ORDER_NOT_FULFILLABLE', 'OVER_FULFILLMENT'],
    })
    .input(createDirectFulfillmentInputSchema)
    .output(directFulfillmentSchema)
    .mutation(async ({ ctx, input }) => {
      const key = readIdempotencyKey(ctx.request.headers, { required: true });
      const { body, replayed } = await createDirectFulfillment(ctx.db, fulfillmentContext(ctx), input, key);
      if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return body;
    }),

  plan: operator
    .meta({
      openapi: {
        method: 'POST',
        path: `${BASE}/planned-fulfillments`,
        tags: TAGS,
        summary: 'Plan a package (allocate units)',
        description: [
          `${OPERATOR} ${ADDRESSING} ${KEY_REQUIRED}`,
          `Body: ${LINES}`,
          '`package?`: a box preset `{ boxPresetId, boxPresetRevision?, loadedWeightGrams }` (its outer dimensions, the inner ones where it sets none, and its current revision are stored) or custom outer dimensions `{ lengthMm, widthMm, heightMm, loadedWeightGrams }` (integers 1 to 3000 mm), never both; `loadedWeightGrams` is the packed parcel, 1 to 150000 g. A preset id that names none of the organization’s presets is `400` at `package.boxPresetId`; a weight below the preset’s tare or above its `maxLoadGrams` is `400` at `package.loadedWeightGrams`; an archived preset, or a `boxPresetRevision` that is no longer current, is `409 STALE_STATE` (`details.boxPresetId`, and `archivedAt` or the current `revision`).',
          `${FULFILLABLE} ${LOCKED}`,
          'Answers `201` with the `PLANNED` fulfillment: its units are allocated (they count against what is left, not as shipped); nothing is bought, shipped or consumed. Audited as `fulfillment.planned`.',
        ].join('\n\n'),
      },
      successStatus: 201,
      errors: ['IDEMPOTENCY_KEY_REUSED', 'ORDER_NOT_FULFILLABLE', 'OVER_FULFILLMENT', 'STALE_STATE'],
    })
    .input(planFulfillmentInputSchema)
    .output(fulfillmentSchema)
    .mutation(async ({ ctx, input }) => {
      const key = readIdempotencyKey(ctx.request.headers, { required: true });
      const { body, replayed } = await planFulfillment(ctx.db, fulfillmentContext(ctx), input, key);
      if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return body;
    }),

  attachExternalPostage: operator
    .meta({
      openapi: {
        method: 'POST',
        path: `${BASE}/fulfillments/{fulfillmentId}/external-postage`,
        tags: TAGS,
        summary: 'Record a label bought elsewhere',
        description: [
          `${OPERATOR} ${ADDRESSING} \`x-idempotency-key\` is ignored: the state guards the route.`,
          'Body: `carrier` (1 to 50), `service?` (1 to 50), `trackingNumber` (1 to 100 letters, digits, spaces, hyphens), `trackingUrl?` (https, at most 2000). Unknown keys are `400`.',
          `\`PLANNED\` → \`READY\` with postage \`{ source: EXTERNAL, status: ACTIVE }\` (no label artifact is stored). Any other state, a \`READY\` one with current postage included, is \`409 INVALID_STATE_TRANSITION\` (\`details { from, to }\`); \`409 PAID_POSTAGE_ACTIVE\` is answered instead when that postage is paid native postage (\`NATIVE\` or \`LEGACY\`, \`ACTIVE\` or \`VOID_PENDING\`): void or acknowledge it first; a fulfillment an unsettled label purchase holds is \`409 LABEL_PURCHASE_UNSETTLED\` (\`details.purchaseId\`). ${FULFILLABLE} Counters do not change. Audited as \`fulfillment.external_postage_attached\`. Answers \`200\` with the fulfillment.`,
        ].join('\n\n'),
      },
      errors: [
        'INVALID_STATE_TRANSITION',
        'LABEL_PURCHASE_UNSETTLED',
        'ORDER_NOT_FULFILLABLE',
        'PAID_POSTAGE_ACTIVE',
      ],
    })
    .input(attachExternalPostageInputSchema)
    .output(fulfillmentSchema)
    .mutation(({ ctx, input }) => attachExternalPostage(ctx.db, fulfillmentContext(ctx), input)),

  handOff: operator
    .meta({
      openapi: {
        method: 'POST',
        path: `${BASE}/fulfillments/{fulfillmentId}/handoff`,
        tags: TAGS,
        summary: 'Hand a READY package to the carrier',
        description: [
          `${OPERATOR} ${ADDRESSING} Header \`x-idempotency-key\` is optional (malformed: \`400\`): the same key and body replay the recorded answer (\`idempotent-replayed: true\`) and consume nothing again; another body is \`409 IDEMPOTENCY_KEY_REUSED\`. Kept 30 days.`,
          'Body: `notifyCustomer` (boolean, required, no default), `shippedAt?` (ISO 8601 with an offset, not in the future, not before the order was created; default now).',
          `\`READY\` with \`ACTIVE\` postage → \`SHIPPED\`: the allocated units become shipped, \`fulfillmentStatus\` is rewritten on the record and its order, tracked stock is consumed once, the notification decision is recorded (\`true\` queues one \`ORDER_SHIPPED\`). Any other state, a second handoff included, is \`409 INVALID_STATE_TRANSITION\`; a \`READY\` one with an open shipment cancellation (\`PENDING\` or \`EXHAUSTED\`) or postage awaiting a void is \`409 HANDOFF_BLOCKED\` \`VOID_PENDING\`, one without current postage (voided or retired) \`POSTAGE_RETIRED\`. ${FULFILLABLE} Audited as \`fulfillment.handed_off\`. Answers \`200\` with the fulfillment.`,
        ].join('\n\n'),
      },
      errors: [
        'HANDOFF_BLOCKED',
        'IDEMPOTENCY_KEY_REUSED',
        'INVALID_STATE_TRANSITION',
        'ORDER_NOT_FULFILLABLE',
      ],
    })
    .input(handOffFulfillmentInputSchema)
    .output(fulfillmentSchema)
    .mutation(async ({ ctx, input }) => {
      const key = readIdempotencyKey(ctx.request.headers);
      const { body, replayed } = await handOffFulfillment(ctx.db, fulfillmentContext(ctx), input, key);
      if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return body;
    }),

  deliver: operator
    .meta({
      openapi: {
        method: 'POST',
        path: `${BASE}/fulfillments/{fulfillmentId}/deliver`,
        tags: TAGS,
        summary: 'Mark a shipment delivered',
        description: [
          `${OPERATOR} ${ADDRESSING} \`x-idempotency-key\` is ignored: the state guards the route.`,
          'Body `{ deliveredAt? }`: ISO 8601 with an offset, not in the future, not before the fulfillment’s `shippedAt` (else `400` at `deliveredAt`); default now.',
          '`SHIPPED` → `DELIVERED`; any other state, a second delivery included, is `409 INVALID_STATE_TRANSITION`. Counters and `fulfillmentStatus` stay; no email. Audited as `fulfillment.delivered`. Answers `200` with the fulfillment.',
        ].join('\n\n'),
      },
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(deliverFulfillmentInputSchema)
    .output(fulfillmentSchema)
    .mutation(({ ctx, input }) => deliverFulfillment(ctx.db, fulfillmentContext(ctx), input)),

  cancel: operator
    .meta({
      openapi: {
        method: 'POST',
        path: `${BASE}/fulfillments/{fulfillmentId}/cancel`,
        tags: TAGS,
        summary: 'Cancel a planned or ready fulfillment',
        description: [
          `${OPERATOR} ${ADDRESSING} \`x-idempotency-key\` is ignored: the state guards the route. Allowed whatever the order's state.`,
          'Body `{ reason? }`: 1 to 500 characters after trimming.',
          '`PLANNED`, or `READY` without current paid native postage, → `CANCELLED`: its allocation is released once (a second cancel is `409 INVALID_STATE_TRANSITION`); no stock is restored, none was consumed. `READY` with current paid native postage is `409 PAID_POSTAGE_ACTIVE` (void it with `cancel-prepared-shipment` first); a fulfillment an unsettled label purchase holds is `409 LABEL_PURCHASE_UNSETTLED` (`details.purchaseId`: reconcile it first). `SHIPPED`, `DELIVERED` and `CANCELLED` are `409 INVALID_STATE_TRANSITION`. Audited as `fulfillment.cancelled`. Answers `200` with the fulfillment.',
        ].join('\n\n'),
      },
      errors: ['INVALID_STATE_TRANSITION', 'LABEL_PURCHASE_UNSETTLED', 'PAID_POSTAGE_ACTIVE'],
    })
    .input(cancelFulfillmentInputSchema)
    .output(fulfillmentSchema)
    .mutation(({ ctx, input }) => cancelFulfillment(ctx.db, fulfillmentContext(ctx), input)),

  repairTracking: operator
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/orders/{id}/tracking',
        tags: TAGS,
        summary: "Repair the tracking of an order's one past shipment",
        description: [
          `${OPERATOR} \`{id}\` is the order (\`ord_…\`) or its sales record (\`sal_…\`); an unknown id or another organization’s is the neutral \`404\`. \`x-idempotency-key\` is ignored: the same values again change nothing.`,
          'Body: at least one of `carrier` (1 to 50), `trackingNumber` (1 to 100 letters, digits, spaces, hyphens), `trackingUrl` (https, at most 2000), each `null` to clear it; `expectedFulfillmentId?`, the fulfillment the client means. Unknown keys are `400`. The result keeps a carrier and a number together, or neither and then no URL; else `400` at the field.',
          'Edit-only: it repairs the tracking of the order’s one `SHIPPED` or `DELIVERED` fulfillment whose tracking is not from a native label (origin `DIRECT` or `LEGACY`, or `PLANNED` with external postage). It never creates, assigns or advances a fulfillment, changes no counter, stock, postage or outbox row and sends no email; allowed whatever the order’s state. None or several such fulfillments is `409 TRACKING_HISTORY_AMBIGUOUS` (`details.compatibleCount`): it never picks one. `expectedFulfillmentId` naming another fulfillment is `409 STALE_STATE` (`details.fulfillmentId`, the repairable one).',
          'The repaired tracking is the fulfillment’s own from then on (shown in its `tracking` and the customer’s `shipments[]`); its postage stays as recorded. A change bumps `version` and is audited as `fulfillment.tracking_repaired` with the changed `fields`. Answers `200 { fulfillment }`.',
        ].join('\n\n'),
      },
      errors: ['STALE_STATE', 'TRACKING_HISTORY_AMBIGUOUS'],
    })
    .input(repairTrackingInputSchema)
    .output(z.object({ fulfillment: fulfillmentSchema }).meta({ id: 'TrackingRepair' }))
    .mutation(({ ctx, input }) => repairTracking(ctx.db, fulfillmentContext(ctx), input)),
});
