import {
  sendTestEmailTemplate,
  sendTestEmailTemplateInputSchema,
  sendTestResultSchema,
} from '@commerce/admin';
import { merchantActor } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { editorProcedure, scopeOf } from './template-editor.ts';

export const sendTestProcedure = editorProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/email-templates/{type}/send-test',
      tags: TAGS,
      summary: 'Send the resolved sample as a test email',
      description:
        'Sends the saved override with the draft over it, rendered with sample values and its subject prefixed "[Test] ". `CUSTOM_ADDRESS` sends only to a member\'s email or the support email (else `422 EMAIL_POLICY_REJECTED`, before any provider call). A failed test email is not retried. At most 10 per ten minutes per organization and client address.',
    },
    errors: ['RESOURCE_NOT_FOUND', 'EMAIL_POLICY_REJECTED', 'PROVIDER_ERROR', 'PROVIDER_UNAVAILABLE'],
    rateLimit: 'email-send-test',
  })
  .input(sendTestEmailTemplateInputSchema)
  .output(sendTestResultSchema)
  .mutation(({ ctx, input }) => {
    const { type, ...body } = input;
    return sendTestEmailTemplate(
      ctx.db,
      ctx.services.mailer,
      {
        ...scopeOf(ctx),
        requester: merchantActor(ctx),
        clock: ctx.clock,
      },
      type,
      body,
    );
  });
