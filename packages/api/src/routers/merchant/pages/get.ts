import { cmsPageSchema, getPage, pageIdInputSchema } from '@commerce/catalog';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const getProcedure = merchantProcedure
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
  .query(({ ctx, input }) => getPage(ctx.db, ctx.tenant.organizationId, input.id));
