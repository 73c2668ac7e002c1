import type { PageQuery } from '@commerce/core';
import type { Collection, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { type PublicItemRead, toPublicItemRead } from '../items/item-read.ts';
import { collectionMembersPage } from './collection-members.ts';
import {
  collectionNotFound,
  countCollectionItems,
  inCollectionOrder,
  resolveCollectionCursor,
  toPublicCollectionRead,
} from './collection-rows.ts';
import type { PublicCollectionListQuery, PublicCollectionRead } from './schemas.ts';

function visibleCollections(db: Kysely<Database>, organizationId: string) {
  return db
    .selectFrom('collections')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'ACTIVE')
    .where('archived_at', 'is', null);
}

async function findVisibleBySlug(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
): Promise<Collection | undefined> {
  return visibleCollections(db, organizationId).where('slug', '=', slug).executeTakeFirst();
}

/**
 * The storefront's collections: ACTIVE and not archived, in the collection
 * order (`sortOrder`, newest first, id descending), as a flat array. The
 * cursor is the id of the last collection of the previous page; one of the
 * organization's collections that has since been hidden still resumes the
 * order, any other id is 400.
 */
export async function listPublicCollections(
  db: Kysely<Database>,
  organizationId: string,
  query: PublicCollectionListQuery,
): Promise<PublicCollectionRead[]> {
  const cursor = await resolveCollectionCursor(db, organizationId, query.cursor);
  const rows = (
    await inCollectionOrder(
      visibleCollections(db, organizationId),
      organizationId,
      cursor,
      query.limit,
    ).execute()
  ).slice(0, query.limit);
  const counts = await countCollectionItems(
    db,
    organizationId,
    rows.map((row) => row.id),
    { publicOnly: true },
  );
  return rows.map((row) => toPublicCollectionRead(row, counts.get(row.id) ?? 0));
}

/** One ACTIVE, non-archived collection by slug; unknown, DRAFT and archived are the same 404. */
export async function getPublicCollection(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
): Promise<PublicCollectionRead> {
  const row = await findVisibleBySlug(db, organizationId, slug);
  if (!row) throw collectionNotFound();
  const counts = await countCollectionItems(db, organizationId, [row.id], { publicOnly: true });
  return toPublicCollectionRead(row, counts.get(row.id) ?? 0);
}

/**
 * The items a shopper sees in a collection, in the collection's own order:
 * ACTIVE items only (DRAFT and archived items are hidden), decorated with
 * `publicOnly`. A collection of the organization that is not ACTIVE, or is
 * archived, reads as having no items (`[]`); a slug that names no
 * collection of the organization is `404 RESOURCE_NOT_FOUND`, the same
 * answer as the collection read gives.
 */
export async function listPublicCollectionItems(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
  query: PageQuery,
  /** Told the collection's id once the slug names one (an HTTP cache keys the answer by it). */
  onCollection?: (collectionId: string) => void,
): Promise<PublicItemRead[]> {
  const collection = await db
    .selectFrom('collections')
    .select(['id', 'status', 'archived_at'])
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (!collection) throw collectionNotFound();
  onCollection?.(collection.id);
  if (collection.status !== 'ACTIVE' || collection.archived_at !== null) return [];
  const page = await collectionMembersPage(db, organizationId, collection.id, query, { publicOnly: true });
  return page.data.map(toPublicItemRead);
}
