import { archivePage, cmsPageSchema, pageActionInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { writer } from './page-access.ts';

export const archiveProcedure = writer()
  .meta({
    purges: 'page',
    openapi: {
      method: 'POST',
      path: '/merchant/pages/{id}/archive',
      tags: TAGS,
      summary: 'Archive a CMS page',
      description: 'Idempotent; the page stops being served publicly at once.',
    },
    successStatus: 201,
  })
  .input(pageActionInputSchema)
  .output(cmsPageSchema)
  .mutation(({ ctx, input }) => archivePage(ctx.db, writeContext(ctx), input.id));
