import { cmsPageSchema, createPage, createPageInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { CONTENT_RULE, SLUG_RULE, TAGS } from './docs.ts';
import { writer } from './page-access.ts';

export const createProcedure = writer()
  .meta({
    purges: 'page',
    openapi: {
      method: 'POST',
      path: '/merchant/pages',
      tags: TAGS,
      summary: 'Create a CMS page',
      description: `${CONTENT_RULE} ${SLUG_RULE}`,
    },
    successStatus: 201,
    errors: ['SLUG_TAKEN'],
  })
  .input(createPageInputSchema)
  .output(cmsPageSchema)
  .mutation(({ ctx, input }) => createPage(ctx.db, writeContext(ctx), input));
