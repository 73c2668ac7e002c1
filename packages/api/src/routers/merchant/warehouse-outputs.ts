import { AppError, isAppError, pageSchema } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import {
  exportWarehouseCsv,
  fileStamp,
  listWarehouseOutputs,
  streamLabelBatch,
  type WarehouseContext,
  warehouseOutputListQuerySchema,
  warehouseOutputSchema,
  warehouseSelectionInputSchema,
} from '@commerce/fulfillment';
import { type RateLimitRule, rateLimitKey } from '@commerce/rate-limit';
import type { ApiContext } from '../../context.ts';
import { assertRestSurface, type Download, downloadSchema, wholeDownload } from '../../download.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: shipping'];
const BASE = '/merchant/shipping/warehouse-outputs';

const operator = merchantProcedureWith('fulfillment:operate');

/**
 * One labels batch at a time per organization, in every process (the rate-limit store): a lease of at
 * most `durationSeconds`, given back when the batch's last byte is written (or the client goes away).
 */
const LABEL_BATCH_LEASE: RateLimitRule = { name: 'label-batch', points: 1, durationSeconds: 120 };
/** What a refused batch is told to wait: a batch takes seconds, the lease's whole duration is its bound. */
const LABEL_BATCH_RETRY_SECONDS = 5;

/** Runs `chunks` under the organization's batch lease; 429 with Retry-After while another batch runs. */
async function underBatchLease(
  ctx: ApiContext,
  organizationId: string,
  chunks: () => AsyncIterable<Uint8Array>,
): Promise<AsyncIterable<Uint8Array>> {
  let release: () => Promise<void>;
  try {
    release = await ctx.services.rateLimiter.lease(LABEL_BATCH_LEASE, rateLimitKey([organizationId]));
  } catch (error) {
    if (!isAppError(error) || error.code !== 'RATE_LIMIT_EXCEEDED') throw error;
    throw new AppError(
      'RATE_LIMIT_EXCEEDED',
      'A labels batch of this organization is being made; retry when it is done',
      undefined,
      { retryAfterSeconds: Math.min(error.retryAfterSeconds ?? 1, LABEL_BATCH_RETRY_SECONDS) },
    );
  }
  return (async function* () {
    try {
      yield* chunks();
    } finally {
      await release();
    }
  })();
}

function warehouseContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): WarehouseContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

const OPERATOR = 'Needs `fulfillment:operate` (Owner and Admin hold it; Staff need the group, else `403`).';
const SELECTION =
  'Body `{ fulfillmentIds }`: 1 to 50 distinct fulfillment ids (`ful_…`), else `400 VALIDATION_FAILED` (a repeat at `fulfillmentIds.N`); unknown keys are `400`. The output follows the request order. Unknown ids and ids of another organization are both `NOT_FOUND`. One refused id refuses the whole selection, every refused id listed in request order: nothing is produced and nothing is audited. Changes nothing but the audit log. Served by REST only (over /trpc it is `404`); `Cache-Control: no-store`.';
const LABEL_ELIGIBILITY =
  '`labelEligibility { canPrint, canPurchase, reason }`: `canPrint` when the fulfillment is `READY` with native `ACTIVE` postage whose label is stored (the labels batch takes it; it still checks the document); `canPurchase` when it has no current postage (`PLANNED`, or `READY` after a void or retirement), a ship-to address and no unsettled label purchase. `reason` is null when it can print, else what stands in the way: `PURCHASE_UNSETTLED` or `SHIP_TO_ADDRESS_MISSING` (the purchase is blocked), `NO_POSTAGE` (a plan), `POSTAGE_RETIRED` (voided or retired, may be relabelled), `EXTERNAL_POSTAGE`, `VOID_PENDING` (a void is open), `LABEL_MISSING` (native postage without a stored label; legacy postage, which has none).';

export const merchantWarehouseOutputsRouter = router({
  list: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: BASE,
        tags: TAGS,
        summary: 'Fulfillments not yet handed off, with packing slips and label eligibility',
        description: [
          'Open to any member. The organization’s `PLANNED` and `READY` fulfillments (`status`: `PLANNED`, `READY` or both comma-separated, the default), by fulfillment id ascending, keyset-paginated: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor naming no fulfillment of the organization is `400`.',
          'Each row: `fulfillmentId, recordId, orderId, orderNumber, orderReference, status, createdAt, package, postage` (the current one: `source, status, carrier, service, trackingNumber`, else null), `packingSlip { orderNumber, orderDate, customerName, shipTo, lines[{ lineId, sku, name, variantName, quantity }] }` (never the order notes) and the label eligibility.',
          LABEL_ELIGIBILITY,
        ].join('\n\n'),
      },
    })
    .input(warehouseOutputListQuerySchema)
    .output(pageSchema(warehouseOutputSchema))
    .query(({ ctx, input }) => listWarehouseOutputs(ctx.db, ctx.tenant.organizationId, input)),

  csvExport: operator
    .meta({
      openapi: {
        method: 'POST',
        path: `${BASE}/csv-export`,
        tags: TAGS,
        summary: 'The selected warehouse outputs as a CSV attachment',
        description: [
          `${OPERATOR} ${SELECTION}`,
          'Each id must name a `PLANNED` or `READY` fulfillment, else `409 WAREHOUSE_SELECTION_REJECTED`, `details.failures[{ fulfillmentId, reason: NOT_FOUND or NOT_A_WAREHOUSE_OUTPUT }]`.',
          '`200 text/csv; charset=utf-8`, attachment `warehouse-<orgSlug>-<yyyymmddThhmmssZ>.csv` (UTC). A header, then a row per fulfillment line: `fulfillmentId, status, orderNumber, orderReference, recipientName, line1, line2, city, state, postalCode, country, lineId, sku, itemName, variantName, quantity, carrier, service, trackingNumber, labelPrintable` (`true` or `false`). RFC 4180 quoting, CRLF line ends; a cell starting with = + - @, tab or carriage return is prefixed with an apostrophe so spreadsheets do not run it as a formula. Audited as `warehouse.csv_exported` (`count, fulfillmentIds`).',
        ].join('\n\n'),
      },
      successStatus: 200,
      download: { contentType: 'text/csv' },
      errors: ['WAREHOUSE_SELECTION_REJECTED'],
    })
    .input(warehouseSelectionInputSchema)
    .output(downloadSchema)
    .mutation(async ({ ctx, input }): Promise<Download> => {
      assertRestSurface(ctx);
      const context = warehouseContext(ctx);
      const csv = await exportWarehouseCsv(ctx.db, context, input);
      return wholeDownload(
        'text/csv; charset=utf-8',
        `warehouse-${ctx.tenant.slug}-${fileStamp(context.at)}.csv`,
        csv,
      );
    }),

  labelsPdf: operator
    .meta({
      openapi: {
        method: 'POST',
        path: `${BASE}/labels-pdf`,
        tags: TAGS,
        summary: 'The stored labels of the selected fulfillments as one PDF',
        description: [
          `${OPERATOR} ${SELECTION}`,
          'Each id must name a `READY` fulfillment with native `ACTIVE` postage, no open void, and a stored label that is safe: `application/pdf`, starting with `%PDF-`, matching its stored SHA-256, at most 2 MiB, loading without ignoring encryption, 1 to 4 pages. Otherwise `409 LABEL_BATCH_REJECTED`, `details.failures[{ fulfillmentId, reason }]` with `reason` `NOT_FOUND`, `NOT_READY`, `NO_NATIVE_POSTAGE` (none current, or external or legacy), `VOID_PENDING`, `LABEL_MISSING` or `LABEL_UNSAFE`: no partial PDF.',
          '`200 application/pdf`, attachment `labels-<orgSlug>-<yyyymmddThhmmssZ>.pdf` (UTC): the labels’ pages in request order, copied into one new document; pages only (content, resources and page boxes: no annotations, actions, scripts or attachments). No carrier is called. Audited as `warehouse.labels_printed` (`count, fulfillmentIds`).',
          'One batch at a time per organization: while one is being made (in any gateway process) another is `429 RATE_LIMIT_EXCEEDED` with `Retry-After` (at most 5 s). The PDF is streamed: every label is checked before the first byte (a refusal is still the `409`), then the pages are written label by label; a label removed meanwhile ends the download early (an incomplete file).',
        ].join('\n\n'),
      },
      successStatus: 200,
      download: { contentType: 'application/pdf' },
      errors: ['LABEL_BATCH_REJECTED', 'RATE_LIMIT_EXCEEDED'],
    })
    .input(warehouseSelectionInputSchema)
    .output(downloadSchema)
    .mutation(async ({ ctx, input }): Promise<Download> => {
      assertRestSurface(ctx);
      const context = warehouseContext(ctx);
      const chunks = await underBatchLease(ctx, context.organizationId, () =>
        streamLabelBatch(ctx.db, context, input),
      );
      return {
        kind: 'download',
        contentType: 'application/pdf',
        filename: `labels-${ctx.tenant.slug}-${fileStamp(context.at)}.pdf`,
        chunks,
      };
    }),
});
