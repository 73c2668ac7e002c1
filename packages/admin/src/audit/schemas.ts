import { cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';

export const auditLogSchema = z
  .object({
    id: z.string(),
    actorUserId: z.string().nullable().describe('The merchant user who acted; null for system actions'),
    action: z.string().describe('`namespace.verb`, e.g. `settings.updated`'),
    targetType: z.string(),
    targetId: z.string().nullable(),
    metadata: z
      .record(z.string(), z.unknown())
      .describe('Shape varies per action; not redacted, may hold operational context'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AuditLog' });
export type AuditLogRead = z.infer<typeof auditLogSchema>;

const instant = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-11-23T10:00:00Z' })
  .transform((value) => new Date(value));

/** The composable filters of the list and the export (docs/platform.md "Audit log"). */
export const auditLogFilterSchema = z.object({
  action: z.string().trim().min(1).max(100).optional().describe('Substring of the action, case-insensitive'),
  targetType: z.string().min(1).max(100).optional().describe('Exact target type'),
  targetId: z.string().min(1).max(200).optional().describe('Exact target id'),
  actorUserId: z.string().min(1).max(64).optional().describe('Exact merchant user id'),
  since: instant.optional().describe('Records at or after this instant (ISO 8601)'),
  until: instant.optional().describe('Records strictly before this instant (ISO 8601)'),
});
export type AuditLogFilter = z.output<typeof auditLogFilterSchema>;

function checkRange(filter: { since?: Date | undefined; until?: Date | undefined }, ctx: z.RefinementCtx) {
  if (filter.since && filter.until && filter.since.getTime() > filter.until.getTime()) {
    ctx.addIssue({ code: 'custom', path: ['until'], message: 'must not be before since' });
  }
}

export const auditLogExportQuerySchema = auditLogFilterSchema.superRefine(checkRange);

export const auditLogListQuerySchema = auditLogFilterSchema
  .extend({ limit: limitSchema, cursor: cursorSchema.optional() })
  .superRefine(checkRange);
export type AuditLogListQuery = z.output<typeof auditLogListQuerySchema>;
