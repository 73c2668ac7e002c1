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
        'Renders the saved override with the draft over it, with sample values; persists nothing. Reserved to Owner and Admin because it is part of editing.',
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
