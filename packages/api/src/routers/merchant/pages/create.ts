import { cmsPageSchema, createPage, createPageInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { CONTENT_RULE, SLUG_RULE, TAGS } from './docs.ts';
import { writer } from './page-access.ts';

export const createProcedure = writer()
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
  .mutation(({ ctx, input }) => createPage(ctx.db, writeContext(ctx), input));
