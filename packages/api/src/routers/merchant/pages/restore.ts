import { cmsPageSchema, pageActionInputSchema, restorePage } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { writer } from './page-access.ts';

export const restoreProcedure = writer()
  .meta({
    purges: 'page',
    openapi: {
      method: 'POST',
      path: '/merchant/pages/{id}/restore',
      tags: TAGS,
      summary: 'Restore an archived CMS page as a draft',
      description:
        'Idempotent. The page comes back as a draft (publish it again with a PATCH); `publishedAt` keeps the first publication.',
    },
    successStatus: 201,
  })
  .input(pageActionInputSchema)
  .output(cmsPageSchema)
  .mutation(({ ctx, input }) => restorePage(ctx.db, writeContext(ctx), input.id));
