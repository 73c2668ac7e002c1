import { exportWarehouseCsv, fileStamp, warehouseSelectionInputSchema } from '@commerce/fulfillment';
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
      description: `A row per fulfillment line of \`PLANNED\` or \`READY\` fulfillments (else \`409 WAREHOUSE_SELECTION_REJECTED\`). A cell that a spreadsheet would run as a formula is prefixed with an apostrophe. ${OPERATOR} ${SELECTION}`,
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
