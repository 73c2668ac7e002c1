import { escapeLikePattern } from '@commerce/catalog';
import { AppError, type Page, toPage } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { PublicServiceListQuery, PublicServiceRead, ServiceListQuery, ServiceRead } from './schemas.ts';
import { loadRequirements, toPublicServiceRead, toServiceRead } from './service-read.ts';

/**
 * A page of services in the merchant order (sortOrder ascending, then
 * createdAt and id descending: `booking_services_list_idx`, or `_status_idx`
 * with a status) after the cursor service, whose createdAt is compared inside
 * the database so that microseconds page exactly.
 */
function servicePage(
  db: Kysely<Database>,
  organizationId: string,
  filters: { status?: string; hideArchived: boolean; search?: string },
  cursor: { id: string; sortOrder: number } | undefined,
  limit: number,
) {
  return db
    .selectFrom('booking_services')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .$if(filters.status !== undefined, (qb) => qb.where('status', '=', filters.status as 'ACTIVE'))
    .$if(filters.hideArchived, (qb) => qb.where('archived_at', 'is', null))
    .$if(filters.search !== undefined, (qb) =>
      qb.where(
        sql<SqlBool>`search_text like ('%' || ${escapeLikePattern(filters.search!.toLowerCase())} || '%')`,
      ),
    )
    .$if(cursor !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('sort_order', '>', cursor!.sortOrder),
          eb.and([
            eb('sort_order', '=', cursor!.sortOrder),
            sql<SqlBool>`(created_at, id) < (select c.created_at, c.id from booking_services c where c.organization_id = ${organizationId} and c.id = ${cursor!.id})`,
          ]),
        ]),
      ),
    )
    .orderBy('sort_order')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

async function resolveCursor(
  db: Kysely<Database>,
  organizationId: string,
  cursor: string | undefined,
  onlyActive: boolean,
): Promise<{ id: string; sortOrder: number } | undefined> {
  if (cursor === undefined) return undefined;
  const row = await db
    .selectFrom('booking_services')
    .select('sort_order')
    .where('organization_id', '=', organizationId)
    .where('id', '=', cursor)
    .$if(onlyActive, (qb) => qb.where('status', '=', 'ACTIVE'))
    .executeTakeFirst();
  if (!row) throw AppError.validation([{ path: 'cursor', message: 'does not name a booking service' }]);
  return { id: cursor, sortOrder: row.sort_order };
}

/**
 * The merchant list: archived services hidden unless `archived` is true;
 * `status` filters exactly (`ARCHIVED` lists only archived ones); `search`
 * is a substring of the name or description. Requirements for the whole page
 * come in one more statement.
 */
export async function listServices(
  db: Kysely<Database>,
  organizationId: string,
  query: ServiceListQuery,
  currency: string,
): Promise<Page<ServiceRead>> {
  const cursor = await resolveCursor(db, organizationId, query.cursor, false);
  const rows = await servicePage(
    db,
    organizationId,
    {
      ...(query.status !== undefined ? { status: query.status } : {}),
      hideArchived: query.status === undefined && query.archived !== true,
      ...(query.search ? { search: query.search } : {}),
    },
    cursor,
    query.limit,
  );
  const page = toPage(rows, query.limit);
  const requirements = await loadRequirements(
    db,
    organizationId,
    page.data.map((row) => row.id),
  );
  return {
    data: page.data.map((row) => toServiceRead(row, requirements.get(row.id) ?? [], currency)),
    nextCursor: page.nextCursor,
  };
}

/** The public list: `ACTIVE` services in the merchant order; a cursor must name one of them. */
export async function listPublicServices(
  db: Kysely<Database>,
  organizationId: string,
  query: PublicServiceListQuery,
  currency: string,
): Promise<Page<PublicServiceRead>> {
  const cursor = await resolveCursor(db, organizationId, query.cursor, true);
  const rows = await servicePage(
    db,
    organizationId,
    { status: 'ACTIVE', hideArchived: true },
    cursor,
    query.limit,
  );
  const page = toPage(rows, query.limit);
  const requirements = await loadRequirements(
    db,
    organizationId,
    page.data.map((row) => row.id),
  );
  return {
    data: page.data.map((row) => toPublicServiceRead(row, requirements.get(row.id) ?? [], currency)),
    nextCursor: page.nextCursor,
  };
}
