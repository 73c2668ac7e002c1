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
      description: [
        'Open to any member. Lists the 21 template types in a fixed order as one page (`nextCursor` is always null).',
        'Each entry has the default copy of the writable slots (`subject`, `heading`, `bodyText`, `ctaLabel`, `fromName`, `replyTo`),',
        "the organization's override (null slots use the default), the merge variables its copy may use as `{{ name }}`,",
        'the resolved copy rendered with sample values (`sample`: subject, heading, body, label, text and HTML parts),',
        'the sender (`fromAddress` is the platform address and is not writable) and the compliance parts',
        '(footer and unsubscribe link), which are not writable.',
      ].join(' '),
    },
  })
  .input(z.object({}))
  .output(emailTemplateListSchema)
  .query(({ ctx }) => listEmailTemplates(ctx.db, scopeOf(ctx)));
