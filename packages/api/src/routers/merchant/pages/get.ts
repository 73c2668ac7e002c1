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
      description: 'Archived pages included.',
    },
  })
  .input(pageIdInputSchema)
  .output(cmsPageSchema)
  .query(({ ctx, input }) => getPage(ctx.db, ctx.tenant.organizationId, input.id));
