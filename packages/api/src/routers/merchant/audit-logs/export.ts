import { auditLogExportQuerySchema, exportAuditLogsCsv } from '@commerce/admin';
import { assertRestSurface, type Download, downloadSchema } from '../../../download.ts';
import { merchantProcedureFor } from '../../../trpc.ts';
import { FILTERS_DESCRIPTION } from './docs.ts';

export const exportProcedure = merchantProcedureFor('Owner', 'Admin')
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/audit-logs/export',
      tags: ['Merchant: audit log'],
      summary: 'Every matching audit record as a CSV attachment, newest first',
      description: `${FILTERS_DESCRIPTION} Every matching record in one file, streamed. A cell that a spreadsheet would run as a formula is prefixed with an apostrophe. Served by REST only.`,
    },
    download: { contentType: 'text/csv' },
  })
  .input(auditLogExportQuerySchema)
  .output(downloadSchema)
  .query(({ ctx, input }): Download => {
    assertRestSurface(ctx);
    const day = ctx.clock.now().toISOString().slice(0, 10);
    return {
      kind: 'download',
      contentType: 'text/csv',
      filename: `audit-log-${ctx.tenant.slug}-${day}.csv`,
      chunks: exportAuditLogsCsv(ctx.db, ctx.tenant.organizationId, input),
    };
  });
