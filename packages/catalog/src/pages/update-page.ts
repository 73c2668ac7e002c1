import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely, Updateable } from 'kysely';
import { lockPage, pageSlugTaken, toCmsPageRead } from './page-rows.ts';
import { sanitizePageContent } from './sanitize-page-content.ts';
import type { CmsPageRead, PageContext, UpdatePageChanges } from './schemas.ts';

/**
 * Changes the fields sent (an archived page too; it stays hidden until
 * restored). `content` is sanitised before it is compared and stored;
 * `excerpt: null` clears it. The first move to PUBLISHED stamps
 * `publishedAt`, which later moves keep. Audited as `page.updated` with the
 * names of the fields whose stored value changed; no change, no write.
 */
export async function updatePage(
  db: Kysely<Database>,
  ctx: PageContext,
  id: string,
  changes: UpdatePageChanges,
): Promise<CmsPageRead> {
  const content = changes.content === undefined ? undefined : sanitizePageContent(changes.content);
  try {
    return await inTransaction(db, async (trx) => {
      const current = await lockPage(trx, ctx.organizationId, id);
      const set: Updateable<Database['pages']> = {};
      const fields: string[] = [];
      if (changes.title !== undefined && changes.title !== current.title) {
        set.title = changes.title;
        fields.push('title');
      }
      if (changes.slug !== undefined && changes.slug !== current.slug) {
        set.slug = changes.slug;
        fields.push('slug');
      }
      if (content !== undefined && content !== current.content) {
        set.content = content;
        fields.push('content');
      }
      if (changes.status !== undefined && changes.status !== current.status) {
        set.status = changes.status;
        fields.push('status');
        if (changes.status === 'PUBLISHED' && current.published_at === null) set.published_at = ctx.at;
      }
      if (changes.excerpt !== undefined && changes.excerpt !== current.excerpt) {
        set.excerpt = changes.excerpt;
        fields.push('excerpt');
      }
      if (fields.length === 0) return toCmsPageRead(current);

      const row = await trx
        .updateTable('pages')
        .set({ ...set, updated_at: ctx.at })
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'page.updated',
        targetType: 'page',
        targetId: id,
        metadata: { fields },
        at: ctx.at,
      });
      return toCmsPageRead(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'pages_slug_key')) throw pageSlugTaken();
    throw error;
  }
}
