import { cmsPageSchema, updatePage, updatePageInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { CONTENT_RULE, SLUG_RULE, TAGS } from './docs.ts';
import { writer } from './page-access.ts';

export const updateProcedure = writer()
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
    return updatePage(ctx.db, writeContext(ctx), id, changes);
  });
