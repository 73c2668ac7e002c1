import {
  auditLogExportQuerySchema,
  auditLogListQuerySchema,
  auditLogSchema,
  exportAuditLogsCsv,
  listAuditLogs,
} from '@commerce/admin';
import { pageSchema } from '@commerce/core';
import { assertRestSurface, type Download, downloadSchema } from '../../download.ts';
import { merchantProcedureFor, router } from '../../trpc.ts';

const FILTERS_DESCRIPTION =
  'Filters compose (AND): `action` is a case-insensitive substring, `targetType`, `targetId` and `actorUserId` match exactly, `since` is inclusive and `until` exclusive.';

export const merchantAuditLogsRouter = router({
  list: merchantProcedureFor('Owner', 'Admin')
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/audit-logs',
        tags: ['Merchant: audit log'],
        summary: 'Audit records of the organization, newest first',
        description: `${FILTERS_DESCRIPTION} Keyset-paginated: pass \`nextCursor\` as \`cursor\` for the next page (limit 1 to 200, default 50). The actor's email is not part of a record here; it appears only in the CSV export.`,
      },
    })
    .input(auditLogListQuerySchema)
    .output(pageSchema(auditLogSchema))
    .query(({ ctx, input }) => listAuditLogs(ctx.db, ctx.tenant.organizationId, input)),

  export: merchantProcedureFor('Owner', 'Admin')
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
    }),
});
