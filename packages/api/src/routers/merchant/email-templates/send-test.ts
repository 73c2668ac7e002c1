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
      description: [
        'Sends the saved override with the optional unsaved `draft` over it, rendered with sample values, its subject',
        'prefixed "[Test] ", and answers once the provider accepted it. `mode` `SELF` (default) sends to the signed-in',
        "user's email. `CUSTOM_ADDRESS` sends to `to`, which the server's email policy must accept before any provider",
        'I/O: a syntactically valid address that is the email of a membership (pending or active) of this organization',
        "or the business profile's `supportEmail`; anything else is 422 EMAIL_POLICY_REJECTED. A provider that cannot be",
        'reached is 503 PROVIDER_UNAVAILABLE, one that refuses the message 502 PROVIDER_ERROR; a failed test email is not',
        'retried later. At most 10 test emails per ten minutes per organization and client address (429 with',
        'Retry-After). An unknown type is 404.',
      ].join(' '),
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
