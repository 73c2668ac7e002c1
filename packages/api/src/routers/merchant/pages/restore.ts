import { cmsPageSchema, pageActionInputSchema, restorePage } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { writer } from './page-access.ts';

export const restoreProcedure = writer()
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
  .mutation(({ ctx, input }) => restorePage(ctx.db, writeContext(ctx), input.id));
