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
      description:
        "Changes only the slots sent; `null` goes back to the default, and an override with every slot back to its default is removed. Copy may use only plain `{{ variable }}` outputs of the type's merge variables; CUSTOMER_AUTH copy must keep `{{ auth.code }}`.",
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
