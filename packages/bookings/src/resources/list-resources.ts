import { escapeLikePattern } from '@commerce/catalog';
import { AppError, type Page, toPage } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, type SqlBool, sql } from 'kysely';
import { RESOURCE_COLUMNS, toResourceRead } from './resource-read.ts';
import type { ResourceListQuery, ResourceRead } from './schemas.ts';

/**
 * The merchant resource list, ordered by name then id (`booking_resources_list_idx`,
 * or `_status_idx` with a status), keyset-paginated. A cursor that names no
 * resource of the organization is a validation failure.
 */
export async function listResources(
  db: Kysely<Database>,
  organizationId: string,
  query: ResourceListQuery,
): Promise<Page<ResourceRead>> {
  if (query.cursor !== undefined) {
    const cursor = await db
      .selectFrom('booking_resources')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursor) throw AppError.validation([{ path: 'cursor', message: 'does not name a resource' }]);
  }
  const search = query.search ? query.search.toLowerCase() : undefined;
  const rows = await db
    .selectFrom('booking_resources')
    .select(RESOURCE_COLUMNS)
    .where('organization_id', '=', organizationId)
    .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!))
    .$if(query.kind !== undefined, (qb) => qb.where('kind', '=', query.kind!))
    .$if(search !== undefined, (qb) =>
      qb.where(sql<SqlBool>`lower(name) like ('%' || ${escapeLikePattern(search!)} || '%')`),
    )
    .$if(query.cursor !== undefined, (qb) =>
      qb.where(
        sql<SqlBool>`(name, id) > (select c.name, c.id from booking_resources c where c.organization_id = ${organizationId} and c.id = ${query.cursor!})`,
      ),
    )
    .orderBy('name')
    .orderBy('id')
    .limit(query.limit + 1)
    .execute();
  const page = toPage(rows, query.limit);
  return { data: page.data.map(toResourceRead), nextCursor: page.nextCursor };
}
