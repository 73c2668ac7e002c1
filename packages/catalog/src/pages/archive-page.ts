import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { lockPage, toCmsPageRead } from './page-rows.ts';
import type { CmsPageRead, PageContext } from './schemas.ts';

/**
 * Soft-deletes a page: sets `archivedAt` (its status is kept until restore).
 * Public reads stop serving it at once. Idempotent: an archived page is
 * answered as it is and nothing is recorded.
 */
export async function archivePage(db: Kysely<Database>, ctx: PageContext, id: string): Promise<CmsPageRead> {
  return inTransaction(db, async (trx) => {
    const current = await lockPage(trx, ctx.organizationId, id);
    if (current.archived_at !== null) return toCmsPageRead(current);
    const row = await trx
      .updateTable('pages')
      .set({ archived_at: ctx.at, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'page.archived',
      targetType: 'page',
      targetId: id,
      metadata: {},
      at: ctx.at,
    });
    return toCmsPageRead(row);
  });
}

/**
 * Brings an archived page back as DRAFT: it must
 * be published again to be served. `publishedAt` keeps the first
 * publication. Idempotent: a page that is not archived is answered unchanged
 * (a live PUBLISHED page stays PUBLISHED) and nothing is recorded.
 */
export async function restorePage(db: Kysely<Database>, ctx: PageContext, id: string): Promise<CmsPageRead> {
  return inTransaction(db, async (trx) => {
    const current = await lockPage(trx, ctx.organizationId, id);
    if (current.archived_at === null) return toCmsPageRead(current);
    const row = await trx
      .updateTable('pages')
      .set({ archived_at: null, status: 'DRAFT', updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'page.restored',
      targetType: 'page',
      targetId: id,
      metadata: { status: 'DRAFT' },
      at: ctx.at,
    });
    return toCmsPageRead(row);
  });
}
