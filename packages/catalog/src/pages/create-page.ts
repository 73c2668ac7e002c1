import { newId } from '@commerce/core';
import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { pageSlugTaken, toCmsPageRead } from './page-rows.ts';
import { sanitizePageContent } from './sanitize-page-content.ts';
import type { CmsPageRead, CreatePageInput, PageContext } from './schemas.ts';

/**
 * Creates a CMS page with its HTML sanitised. A page created PUBLISHED gets
 * `publishedAt` now. The slug is unique per organization by the
 * `pages_slug_key` constraint: of concurrent creates with one slug exactly
 * one succeeds, the others answer `SLUG_TAKEN`.
 */
export async function createPage(
  db: Kysely<Database>,
  ctx: PageContext,
  input: CreatePageInput,
): Promise<CmsPageRead> {
  const content = sanitizePageContent(input.content);
  try {
    return await inTransaction(db, async (trx) => {
      const row = await trx
        .insertInto('pages')
        .values({
          organization_id: ctx.organizationId,
          id: newId('pag', ctx.at),
          slug: input.slug,
          title: input.title,
          content,
          excerpt: input.excerpt ?? null,
          status: input.status,
          archived_at: null,
          published_at: input.status === 'PUBLISHED' ? ctx.at : null,
          created_at: ctx.at,
          updated_at: ctx.at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'page.created',
        targetType: 'page',
        targetId: row.id,
        metadata: { slug: row.slug, title: row.title, status: row.status },
        at: ctx.at,
      });
      return toCmsPageRead(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'pages_slug_key')) throw pageSlugTaken();
    throw error;
  }
}
