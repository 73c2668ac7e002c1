import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely, Selectable } from 'kysely';
import type { ResourceRead } from './schemas.ts';

export const RESOURCE_COLUMNS = [
  'id',
  'name',
  'kind',
  'capacity',
  'user_id',
  'status',
  'metafields',
  'archived_at',
  'created_at',
  'updated_at',
] as const;
export type ResourceRow = Pick<Selectable<Database['booking_resources']>, (typeof RESOURCE_COLUMNS)[number]>;

export const resourceNotFound = () => AppError.notFound('Booking resource not found');

export function toResourceRead(row: ResourceRow): ResourceRead {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    capacity: row.capacity,
    userId: row.user_id,
    status: row.status,
    metafields: row.metafields,
    archivedAt: row.archived_at === null ? null : new Date(row.archived_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export async function findResourceRow(
  db: Kysely<Database>,
  organizationId: string,
  resourceId: string,
): Promise<ResourceRow | undefined> {
  return db
    .selectFrom('booking_resources')
    .select(RESOURCE_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', resourceId)
    .executeTakeFirst();
}

/** A merchant read: archived included; another tenant's resource is missing (404). */
export async function getResource(
  db: Kysely<Database>,
  organizationId: string,
  resourceId: string,
): Promise<ResourceRead> {
  const row = await findResourceRow(db, organizationId, resourceId);
  if (!row) throw resourceNotFound();
  return toResourceRead(row);
}
