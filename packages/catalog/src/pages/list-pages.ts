import { type Page, toPage } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { inPageOrder, PAGE_SUMMARY_COLUMNS, resolvePageCursor, toCmsPageSummaryRead } from './page-rows.ts';
import type { CmsPageSummaryRead, PageListQuery } from './schemas.ts';

/**
 * The organization's pages for the merchant, newest first (then id
 * descending; the `pages_list_idx` index), without their content,
 * keyset-paginated. Archived pages only with `archived: true`; `status`
 * filters.
 */
export async function listPages(
  db: Kysely<Database>,
  organizationId: string,
  query: PageListQuery,
): Promise<Page<CmsPageSummaryRead>> {
  const cursor = await resolvePageCursor(db, organizationId, query.cursor);
  const rows = await inPageOrder(
    db
      .selectFrom('pages')
      .select(PAGE_SUMMARY_COLUMNS)
      .where('organization_id', '=', organizationId)
      .$if(query.archived !== true, (qb) => qb.where('archived_at', 'is', null))
      .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!)),
    organizationId,
    cursor,
    query.limit + 1,
  ).execute();
  return toPage(rows.map(toCmsPageSummaryRead), query.limit);
}
