import {
  emailTemplatePreviewSchema,
  previewEmailTemplate,
  previewEmailTemplateInputSchema,
} from '@commerce/admin';
import { TAGS } from './docs.ts';
import { editorProcedure, scopeOf } from './template-editor.ts';

export const previewProcedure = editorProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/email-templates/{type}/preview',
      tags: TAGS,
      summary: 'Render the saved override with an optional unsaved draft',
      description:
        'Renders the saved override with the optional `draft` slots over it (a `null` draft slot shows the default), using sample values and sample links. The draft is validated as an update would be, with issue paths `draft.<slot>`. Persists nothing and records no audit entry. Reserved to Owner and Admin because it is part of editing. An unknown type is 404.',
    },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(previewEmailTemplateInputSchema)
  .output(emailTemplatePreviewSchema)
  .mutation(({ ctx, input }) =>
    previewEmailTemplate(
      ctx.db,
      scopeOf(ctx),
      input.type,
      input.draft === undefined ? {} : { draft: input.draft },
    ),
  );
