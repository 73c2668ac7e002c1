import { AppError, keysetAfter, type Page, toPage } from '@commerce/core';
import type { AuditLog, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { whereAuditFilters } from './filters.ts';
import type { AuditLogListQuery, AuditLogRead } from './schemas.ts';

export function toAuditLogRead(row: AuditLog): AuditLogRead {
  return {
    id: row.id,
    actorUserId: row.actor_user_id,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
  };
}

/** The organization's audit records, newest first, filtered and keyset-paginated by id. */
export async function listAuditLogs(
  db: Kysely<Database>,
  organizationId: string,
  query: AuditLogListQuery,
): Promise<Page<AuditLogRead>> {
  let cursorRow: { created_at: Date; id: string } | undefined;
  if (query.cursor) {
    cursorRow = await db
      .selectFrom('audit_logs')
      .select(['created_at', 'id'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursorRow) throw AppError.validation([{ path: 'cursor', message: 'does not name an audit record' }]);
  }
  const rows = await whereAuditFilters(db.selectFrom('audit_logs').selectAll(), organizationId, query)
    .$if(cursorRow !== undefined, (qb) =>
      qb.where((eb) =>
        keysetAfter(eb, [
          { column: 'audit_logs.created_at', direction: 'desc', value: cursorRow!.created_at },
          { column: 'audit_logs.id', direction: 'desc', value: cursorRow!.id },
        ]),
      ),
    )
    .orderBy('audit_logs.created_at', 'desc')
    .orderBy('audit_logs.id', 'desc')
    .limit(query.limit + 1)
    .execute();
  return toPage(rows.map(toAuditLogRead), query.limit);
}
