import { AppError } from '@commerce/core';
import type { Database, Page } from '@commerce/db';
import { type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type {
  CmsPageRead,
  CmsPageSummaryRead,
  PublicCmsPageRead,
  PublicCmsPageSummaryRead,
} from './schemas.ts';

export const pageNotFound = () => AppError.notFound('Page not found');

export const pageSlugTaken = () =>
  new AppError('SLUG_TAKEN', 'Another page of the organization has this slug');

export async function lockPage(trx: Kysely<Database>, organizationId: string, id: string): Promise<Page> {
  const row = await trx
    .selectFrom('pages')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw pageNotFound();
  return row;
}

/** The columns of a list row: everything but the content, which may be 200,000 characters. */
export const PAGE_SUMMARY_COLUMNS = [
  'id',
  'slug',
  'title',
  'excerpt',
  'status',
  'archived_at',
  'published_at',
  'created_at',
  'updated_at',
] as const;
type PageSummaryRow = Pick<Page, (typeof PAGE_SUMMARY_COLUMNS)[number]>;

export function toCmsPageSummaryRead(row: PageSummaryRow): CmsPageSummaryRead {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    status: row.status,
    archivedAt: row.archived_at?.toISOString() ?? null,
    publishedAt: row.published_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toCmsPageRead(row: Page): CmsPageRead {
  return { ...toCmsPageSummaryRead(row), content: row.content };
}

export function toPublicCmsPageSummaryRead(row: PageSummaryRow): PublicCmsPageSummaryRead {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    publishedAt: row.published_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toPublicCmsPageRead(row: Page): PublicCmsPageRead {
  return { ...toPublicCmsPageSummaryRead(row), content: row.content };
}

/**
 * Resolves a list cursor (the id of the last page of the previous page of
 * results): any page of the organization, whatever the filters; an id that
 * names none is 400.
 */
export async function resolvePageCursor(
  db: Kysely<Database>,
  organizationId: string,
  cursor: string | undefined,
): Promise<string | undefined> {
  if (cursor === undefined) return undefined;
  const row = await db
    .selectFrom('pages')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', cursor)
    .executeTakeFirst();
  if (!row) throw AppError.validation([{ path: 'cursor', message: 'does not name a page' }]);
  return cursor;
}

/**
 * Newest first (createdAt, then id, descending: `pages_list_idx`), after the
 * cursor page, `limit` rows. The cursor's createdAt is compared inside the
 * database, so timestamps finer than JavaScript's milliseconds page exactly.
 */
export function inPageOrder<O>(
  query: SelectQueryBuilder<Database, 'pages', O>,
  organizationId: string,
  cursor: string | undefined,
  limit: number,
): SelectQueryBuilder<Database, 'pages', O> {
  return query
    .$if(cursor !== undefined, (qb) =>
      qb.where(
        sql<SqlBool>`(pages.created_at, pages.id) < (select p.created_at, p.id from pages p where p.organization_id = ${organizationId} and p.id = ${cursor})`,
      ),
    )
    .orderBy('pages.created_at', 'desc')
    .orderBy('pages.id', 'desc')
    .limit(limit);
}
