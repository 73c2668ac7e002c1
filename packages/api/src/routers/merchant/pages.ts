import {
  archivePage,
  cmsPageSchema,
  cmsPageSummarySchema,
  createPage,
  createPageInputSchema,
  getPage,
  listPages,
  type PageContext,
  pageActionInputSchema,
  pageIdInputSchema,
  pageListQuerySchema,
  restorePage,
  updatePage,
  updatePageInputSchema,
} from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import type { ApiContext } from '../../context.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: pages'];

function pageContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): PageContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

const writer = () => merchantProcedureWith('content:write');

const SLUG_RULE =
  '`slug` is unique per organization (1 to 100 characters, lowercase letters and digits in groups joined by single hyphens): one another page holds, archived or not, is `409 SLUG_TAKEN`.';

const CONTENT_RULE =
  '`content` is HTML of at most 200,000 characters, sanitised before it is stored: kept are `p`, `br`, `hr`, `h1`–`h6`, `strong`, `b`, `em`, `i`, `u`, `s`, `small`, `sub`, `sup`, `mark`, `abbr`, `code`, `pre`, `blockquote`, `ul`, `ol`, `li`, `dl`, `dt`, `dd`, `a` (`href`, `title`), `img` (`src` absolute http or https, `alt`, `title`, `width`, `height`), `figure`, `figcaption`, `table`, `caption`, `thead`, `tbody`, `tfoot`, `tr`, `th`, `td`, `div`, `span`. Links keep http, https, mailto, tel and relative URLs. Everything else goes: `script`, `style`, `iframe`, `object`, `embed`, `svg`, forms, `style`/`class`/`id` and event handler attributes, `javascript:` and `data:` URLs (however encoded). The response carries the stored (sanitised) content.';

export const merchantPagesRouter = router({
  create: writer()
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/pages',
        tags: TAGS,
        summary: 'Create a CMS page',
        description: [
          'Body `{ title, slug, content, status, excerpt? }`: `title` 1 to 200 characters (trimmed), `status` `PUBLISHED` or `DRAFT`, `excerpt` at most 1,000 characters (plain text). Unknown keys are `400`.',
          CONTENT_RULE,
          SLUG_RULE,
          'A page created `PUBLISHED` gets `publishedAt` now. Answers `201` with the page. Audited as `page.created`.',
        ].join('\n\n'),
      },
      successStatus: 201,
      errors: ['SLUG_TAKEN'],
    })
    .input(createPageInputSchema)
    .output(cmsPageSchema)
    .mutation(({ ctx, input }) => createPage(ctx.db, pageContext(ctx), input)),

  list: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/pages',
        tags: TAGS,
        summary: "The organization's CMS pages, newest first",
        description:
          'Open to any member. Each page without its `content` (read one page for it). Ordered by `createdAt` descending, then `id` descending. Archived pages are hidden unless `archived=true`; `status` filters by `PUBLISHED` or `DRAFT`. Keyset-paginated: pass `nextCursor` as `cursor` (limit 1 to 200, default 50); a cursor that names no page of the organization is `400`.',
      },
    })
    .input(pageListQuerySchema)
    .output(pageSchema(cmsPageSummarySchema))
    .query(({ ctx, input }) => listPages(ctx.db, ctx.tenant.organizationId, input)),

  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/pages/{id}',
        tags: TAGS,
        summary: 'One CMS page with its content',
        description:
          'Open to any member; archived pages included. An unknown id, or one of another organization, is `404`.',
      },
    })
    .input(pageIdInputSchema)
    .output(cmsPageSchema)
    .query(({ ctx, input }) => getPage(ctx.db, ctx.tenant.organizationId, input.id)),

  update: writer()
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/pages/{id}',
        tags: TAGS,
        summary: 'Change a CMS page',
        description: [
          'Any subset of `{ title, slug, content, status, excerpt }` (same rules as create; `excerpt: null` clears it). Archived pages may be edited; they stay hidden until restored.',
          CONTENT_RULE,
          SLUG_RULE,
          'The first move to `PUBLISHED` sets `publishedAt`; later moves keep it. Audited as `page.updated` with `{ fields }`, the names of the fields whose stored value changed; a patch that changes nothing answers the page and records nothing.',
        ].join('\n\n'),
      },
      errors: ['SLUG_TAKEN'],
    })
    .input(updatePageInputSchema)
    .output(cmsPageSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...changes } = input;
      return updatePage(ctx.db, pageContext(ctx), id, changes);
    }),

  archive: writer()
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/pages/{id}/archive',
        tags: TAGS,
        summary: 'Archive a CMS page',
        description:
          'Soft delete: sets `archivedAt`; the page stops being served publicly at once. Idempotent: archiving an archived page answers it unchanged. Answers `201` with the page. Audited as `page.archived`.',
      },
      successStatus: 201,
    })
    .input(pageActionInputSchema)
    .output(cmsPageSchema)
    .mutation(({ ctx, input }) => archivePage(ctx.db, pageContext(ctx), input.id)),

  restore: writer()
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/pages/{id}/restore',
        tags: TAGS,
        summary: 'Restore an archived CMS page as a draft',
        description:
          'Clears `archivedAt` and sets `status` to `DRAFT` (publish it again with a PATCH); `publishedAt` keeps the first publication. Idempotent: restoring a page that is not archived answers it unchanged. Answers `201` with the page. Audited as `page.restored`.',
      },
      successStatus: 201,
    })
    .input(pageActionInputSchema)
    .output(cmsPageSchema)
    .mutation(({ ctx, input }) => restorePage(ctx.db, pageContext(ctx), input.id)),
});
