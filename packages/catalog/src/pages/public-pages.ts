import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  inPageOrder,
  PAGE_SUMMARY_COLUMNS,
  pageNotFound,
  resolvePageCursor,
  toPublicCmsPageRead,
  toPublicCmsPageSummaryRead,
} from './page-rows.ts';
import type { PublicCmsPageRead, PublicCmsPageSummaryRead, PublicPageListQuery } from './schemas.ts';

/**
 * The storefront's pages: PUBLISHED and not archived, newest first (then id
 * descending), without their content, as a flat array. The cursor is the id
 * of the last page of the previous page of results; one of the
 * organization's pages hidden since still resumes the order, any other id is
 * 400.
 */
export async function listPublicPages(
  db: Kysely<Database>,
  organizationId: string,
  query: PublicPageListQuery,
): Promise<PublicCmsPageSummaryRead[]> {
  const cursor = await resolvePageCursor(db, organizationId, query.cursor);
  const rows = await inPageOrder(
    db
      .selectFrom('pages')
      .select(PAGE_SUMMARY_COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'PUBLISHED')
      .where('archived_at', 'is', null),
    organizationId,
    cursor,
    query.limit,
  ).execute();
  return rows.map(toPublicCmsPageSummaryRead);
}

/** One PUBLISHED, non-archived page by slug, with its content; unknown, DRAFT and archived are the same 404. */
export async function getPublicPage(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
): Promise<PublicCmsPageRead> {
  const row = await db
    .selectFrom('pages')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .where('status', '=', 'PUBLISHED')
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw pageNotFound();
  return toPublicCmsPageRead(row);
}
