import { type Database, recordAudit } from '@commerce/db';
import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import type { WarehouseContext, WarehouseSelectionFailure, WarehouseSelectionInput } from './schemas.ts';
import { isWarehouseStatus, labelEligibilityOf } from './warehouse-rows.ts';
import { readSelectedRows, selectionRefused } from './warehouse-selection.ts';

/** The CSV export's columns, in order. */
export const WAREHOUSE_CSV_COLUMNS = [
  'fulfillmentId',
  'status',
  'orderNumber',
  'orderReference',
  'recipientName',
  'line1',
  'line2',
  'city',
  'state',
  'postalCode',
  'country',
  'lineId',
  'sku',
  'itemName',
  'variantName',
  'quantity',
  'carrier',
  'service',
  'trackingNumber',
  'labelPrintable',
] as const;

const CSV_OPTIONS = {
  // A cell starting with = + - @, tab or carriage return is prefixed with a quote, so a spreadsheet
  // shows it as text instead of running it as a formula.
  escape_formulas: true,
  // RFC 4180: CRLF line ends; a cell with a comma, quote or line break is quoted, quotes doubled.
  record_delimiter: 'windows',
  // A lone CR or LF breaks rows in spreadsheets as well: any cell holding one is quoted.
  quoted_match: /[\r\n]/,
} as const;

/**
 * `POST /merchant/shipping/warehouse-outputs/csv-export`: the
 * selected fulfillments, in request order, a row per fulfillment line, as
 * one CSV text. Each id must name a `PLANNED` or `READY` fulfillment of the
 * organization; otherwise nothing is produced: 409
 * WAREHOUSE_SELECTION_REJECTED listing every failure (`NOT_FOUND` for
 * unknown and foreign ids alike, `NOT_A_WAREHOUSE_OUTPUT`). Changes nothing
 * but the audit log (`warehouse.csv_exported`).
 */
export async function exportWarehouseCsv(
  db: Kysely<Database>,
  ctx: WarehouseContext,
  input: WarehouseSelectionInput,
): Promise<string> {
  const { fulfillmentIds } = input;
  const selected = await readSelectedRows(db, ctx.organizationId, fulfillmentIds);
  const failures: { fulfillmentId: string; reason: WarehouseSelectionFailure }[] = [];
  for (const fulfillmentId of fulfillmentIds) {
    const row = selected.get(fulfillmentId);
    if (!row) failures.push({ fulfillmentId, reason: 'NOT_FOUND' });
    else if (!isWarehouseStatus(row.status))
      failures.push({ fulfillmentId, reason: 'NOT_A_WAREHOUSE_OUTPUT' });
  }
  if (failures.length > 0) throw selectionRefused('WAREHOUSE_SELECTION_REJECTED', failures);

  const records: string[][] = [[...WAREHOUSE_CSV_COLUMNS]];
  for (const fulfillmentId of fulfillmentIds) {
    const row = selected.get(fulfillmentId)!;
    const shipTo = row.shipTo;
    const printable = labelEligibilityOf(row).canPrint ? 'true' : 'false';
    for (const line of row.lines)
      records.push([
        row.id,
        row.status,
        row.orderNumber === null ? '' : String(row.orderNumber),
        row.orderReference ?? '',
        shipTo?.name ?? '',
        shipTo?.line1 ?? '',
        shipTo?.line2 ?? '',
        shipTo?.city ?? '',
        shipTo?.state ?? '',
        shipTo?.postalCode ?? '',
        shipTo?.country ?? '',
        line.lineId,
        line.sku ?? '',
        line.name,
        line.variantName ?? '',
        String(line.quantity),
        row.postage?.carrier ?? '',
        row.postage?.service ?? '',
        row.postage?.trackingNumber ?? '',
        printable,
      ]);
  }
  const csv = stringify(records, CSV_OPTIONS);
  await recordAudit(db, {
    organizationId: ctx.organizationId,
    actor: ctx.actor,
    action: 'warehouse.csv_exported',
    targetType: 'warehouse_output',
    targetId: null,
    metadata: { count: fulfillmentIds.length, fulfillmentIds },
    at: ctx.at,
  });
  return csv;
}
