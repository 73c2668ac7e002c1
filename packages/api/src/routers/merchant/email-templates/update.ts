import { emailTemplateSchema, updateEmailTemplate, updateEmailTemplateInputSchema } from '@commerce/admin';
import { merchantActor } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { editorProcedure, scopeOf } from './template-editor.ts';

export const updateProcedure = editorProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/email-templates/{type}',
      tags: TAGS,
      summary: "Upsert the organization's override of one template type",
      description: [
        'Changes only the slots sent; a slot sent as `null` goes back to its default, and an override with every slot',
        "back to its default is removed. Copy may use only plain `{{ variable }}` outputs of the type's merge variables:",
        'an unknown variable (one issue per variable, its path the slot), a tag (`{% … %}`) or a filter is 400',
        'VALIDATION_FAILED. Limits: subject and heading 200 characters, bodyText 5000, ctaLabel 60, fromName 100;',
        'subject, heading, ctaLabel and fromName are one line; fromName holds no `<`, `>`, `"` or `\\`; replyTo is an',
        'email or null. CUSTOMER_AUTH copy must keep `{{ auth.code }}`. A change is audited as `email_template.updated`',
        'with the names of the changed slots. An unknown type is 404.',
      ].join(' '),
    },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(updateEmailTemplateInputSchema)
  .output(emailTemplateSchema)
  .mutation(({ ctx, input }) => {
    const { type, ...patch } = input;
    return updateEmailTemplate(
      ctx.db,
      {
        ...scopeOf(ctx),
        actor: merchantActor(ctx),
        at: ctx.clock.now(),
      },
      type,
      patch,
    );
  });
