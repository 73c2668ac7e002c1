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
      description: `${FILTERS_DESCRIPTION} The actor's email is only in the CSV export.`,
    },
  })
  .input(auditLogListQuerySchema)
  .output(pageSchema(auditLogSchema))
  .query(({ ctx, input }) => listAuditLogs(ctx.db, ctx.tenant.organizationId, input));
