import { exportWarehouseCsv, fileStamp, warehouseSelectionInputSchema } from '@commerce/orders';
import { assertRestSurface, type Download, downloadSchema, wholeDownload } from '../../../download.ts';
import { writeContext } from '../../../write-context.ts';
import { BASE, OPERATOR, SELECTION, TAGS } from './docs.ts';
import { operator } from './warehouse-access.ts';

export const csvExportProcedure = operator
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
    const context = writeContext(ctx);
    const csv = await exportWarehouseCsv(ctx.db, context, input);
    return wholeDownload(
      'text/csv; charset=utf-8',
      `warehouse-${ctx.tenant.slug}-${fileStamp(context.at)}.csv`,
      csv,
    );
  });
