import { emailTemplateListSchema, listEmailTemplates } from '@commerce/admin';
import { z } from 'zod';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';
import { scopeOf } from './template-editor.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/email-templates',
      tags: TAGS,
      summary: 'Every transactional email template with its defaults, override and resolved sample',
      description:
        "Every template type in a fixed order, as one page: its defaults, the organization's override, its merge variables and the copy rendered with sample values. The sender address and the compliance parts are not writable.",
    },
  })
  .input(z.object({}))
  .output(emailTemplateListSchema)
  .query(({ ctx }) => listEmailTemplates(ctx.db, scopeOf(ctx)));
