import { cmsPageSchema, updatePage, updatePageInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { CONTENT_RULE, SLUG_RULE, TAGS } from './docs.ts';
import { writer } from './page-access.ts';

export const updateProcedure = writer()
  .meta({
    purges: 'page',
    openapi: {
      method: 'PATCH',
      path: '/merchant/pages/{id}',
      tags: TAGS,
      summary: 'Change a CMS page',
      description: `Fields not sent stay; an archived page may be edited and stays hidden until restored. The first publication sets \`publishedAt\`. A patch that changes nothing records nothing. ${CONTENT_RULE} ${SLUG_RULE}`,
    },
    errors: ['SLUG_TAKEN'],
  })
  .input(updatePageInputSchema)
  .output(cmsPageSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updatePage(ctx.db, writeContext(ctx), id, changes);
  });
