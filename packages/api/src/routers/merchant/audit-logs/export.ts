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
      description: `${FILTERS_DESCRIPTION} No pagination: the file holds every matching record, streamed from a database cursor. Columns: timestamp, actorUserId, actorEmail, action, targetType, targetId, metadata (JSON). RFC 4180 quoting (CRLF line ends); a cell starting with = + - @, tab or carriage return is prefixed with an apostrophe so spreadsheets do not run it as a formula. Served by REST only.`,
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
