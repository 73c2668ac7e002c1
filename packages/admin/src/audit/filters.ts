import type { Database } from '@commerce/db';
import type { SelectQueryBuilder } from 'kysely';
import type { AuditLogFilter } from './schemas.ts';

/** `%`, `_` and `\` in a substring filter match themselves, not any text. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The tenant predicate and every filter given, shared by the list and the export. */
export function whereAuditFilters<O>(
  query: SelectQueryBuilder<Database, 'audit_logs', O>,
  organizationId: string,
  filter: AuditLogFilter,
): SelectQueryBuilder<Database, 'audit_logs', O> {
  let filtered = query.where('audit_logs.organization_id', '=', organizationId);
  if (filter.action !== undefined)
    filtered = filtered.where('audit_logs.action', 'ilike', `%${escapeLike(filter.action)}%`);
  if (filter.targetType !== undefined)
    filtered = filtered.where('audit_logs.target_type', '=', filter.targetType);
  if (filter.targetId !== undefined) filtered = filtered.where('audit_logs.target_id', '=', filter.targetId);
  if (filter.actorUserId !== undefined)
    filtered = filtered.where('audit_logs.actor_user_id', '=', filter.actorUserId);
  if (filter.since !== undefined) filtered = filtered.where('audit_logs.created_at', '>=', filter.since);
  if (filter.until !== undefined) filtered = filtered.where('audit_logs.created_at', '<', filter.until);
  return filtered;
}
