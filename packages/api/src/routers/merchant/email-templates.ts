import {
  type EmailTemplateScope,
  emailTemplateListSchema,
  emailTemplatePreviewSchema,
  emailTemplateSchema,
  listEmailTemplates,
  previewEmailTemplate,
  previewEmailTemplateInputSchema,
  sendTestEmailTemplate,
  sendTestEmailTemplateInputSchema,
  sendTestResultSchema,
  updateEmailTemplate,
  updateEmailTemplateInputSchema,
} from '@commerce/admin';
import { z } from 'zod';
import type { ApiContext } from '../../context.ts';
import { hostedLinkBase } from '../../hosted-origin.ts';
import { merchantProcedure, merchantProcedureFor, router } from '../../trpc.ts';

const TAGS = ['Merchant: email templates'];

function scopeOf(ctx: ApiContext & { tenant: { organizationId: string } }): EmailTemplateScope {
  return {
    organizationId: ctx.tenant.organizationId,
    emailFrom: ctx.config.email.from,
    linkBase: hostedLinkBase(ctx),
  };
}

// Membership and email-template writes need Owner or Admin (CONTRACT.md section 5). The preview
// stores nothing but is part of editing, so it is reserved the same way; the list is open to any member.
const editorProcedure = merchantProcedureFor('Owner', 'Admin');

export const merchantEmailTemplatesRouter = router({
  list: merchantProcedure
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
    .query(({ ctx }) => listEmailTemplates(ctx.db, scopeOf(ctx))),

  update: editorProcedure
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
          actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
          at: ctx.clock.now(),
        },
        type,
        patch,
      );
    }),

  preview: editorProcedure
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
    ),

  sendTest: editorProcedure
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
          requester: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
          clock: ctx.clock,
        },
        type,
        body,
      );
    }),
});
