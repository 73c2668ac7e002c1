import { auditLogListQuerySchema, auditLogSchema, listAuditLogs } from '@commerce/admin';
import { pageSchema } from '@commerce/core';
import { merchantProcedureFor } from '../../../trpc.ts';
import { FILTERS_DESCRIPTION } from './docs.ts';

export const listProcedure = merchantProcedureFor('Owner', 'Admin')
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
  .query(({ ctx, input }) => listAuditLogs(ctx.db, ctx.tenant.organizationId, input));
