import { pageSchema } from '@commerce/core';
import {
  EMAIL_TEMPLATE_TYPES,
  emailTemplateSlotsPatchSchema,
  SLOT_MAX_LENGTH,
} from '@commerce/notifications';
import { z } from 'zod';

/**
 * The `{type}` path parameter. Any string up to 64 characters reaches the
 * service, so that a type outside the fixed set answers 404 rather than 400.
 */
export const emailTemplateTypeParamSchema = z
  .string()
  .min(1)
  .max(64)
  .describe(`The template type: one of ${EMAIL_TEMPLATE_TYPES.join(', ')}. Any other value answers 404.`);

const slotsPatchShape = emailTemplateSlotsPatchSchema.shape;

/** A draft's or an update's slots: each optional; `null` means the default. */
export const emailTemplateDraftSchema = emailTemplateSlotsPatchSchema.meta({ id: 'EmailTemplateDraft' });

export const updateEmailTemplateInputSchema = z.strictObject({
  type: emailTemplateTypeParamSchema,
  ...slotsPatchShape,
});
export type UpdateEmailTemplateInput = z.infer<typeof updateEmailTemplateInputSchema>;

export const previewEmailTemplateBodySchema = z.strictObject({
  draft: emailTemplateDraftSchema
    .optional()
    .describe('Unsaved slots shown over the saved override; `null` shows the default. Nothing is stored.'),
});
export type PreviewEmailTemplateBody = z.infer<typeof previewEmailTemplateBodySchema>;

export const previewEmailTemplateInputSchema = z.strictObject({
  type: emailTemplateTypeParamSchema,
  ...previewEmailTemplateBodySchema.shape,
});

export const SEND_TEST_MODES = ['SELF', 'CUSTOM_ADDRESS'] as const;
export type SendTestMode = (typeof SEND_TEST_MODES)[number];

const sendTestBodyShape = {
  mode: z
    .enum(SEND_TEST_MODES)
    .default('SELF')
    .describe(
      "`SELF` (default) sends to the signed-in user's email. `CUSTOM_ADDRESS` sends to `to`, which the server's email policy must accept.",
    ),
  to: z
    .string()
    .trim()
    .min(1)
    .max(320)
    .optional()
    .describe(
      'Only with `CUSTOM_ADDRESS`: a valid address that is the email of a membership of this organization or its business profile `supportEmail`; anything else is 422 EMAIL_POLICY_REJECTED.',
    ),
  draft: emailTemplateDraftSchema
    .optional()
    .describe('Unsaved slots sent over the saved override, as for the preview. Nothing is stored.'),
};

function requireRecipientForMode(
  body: { mode: SendTestMode; to?: string | undefined },
  context: z.RefinementCtx,
): void {
  if (body.mode === 'CUSTOM_ADDRESS' && body.to === undefined) {
    context.addIssue({ code: 'custom', path: ['to'], message: 'is required with mode CUSTOM_ADDRESS' });
  }
  if (body.mode === 'SELF' && body.to !== undefined) {
    context.addIssue({ code: 'custom', path: ['to'], message: 'is only accepted with mode CUSTOM_ADDRESS' });
  }
}

export const sendTestEmailTemplateBodySchema = z
  .strictObject(sendTestBodyShape)
  .superRefine(requireRecipientForMode);
export type SendTestEmailTemplateBody = z.input<typeof sendTestEmailTemplateBodySchema>;

export const sendTestEmailTemplateInputSchema = z
  .strictObject({ type: emailTemplateTypeParamSchema, ...sendTestBodyShape })
  .superRefine(requireRecipientForMode);

const slotText = (max: number) => z.string().max(max);

export const emailTemplateSlotsSchema = z
  .object({
    subject: slotText(SLOT_MAX_LENGTH.subject),
    heading: slotText(SLOT_MAX_LENGTH.heading),
    bodyText: slotText(SLOT_MAX_LENGTH.bodyText),
    ctaLabel: slotText(SLOT_MAX_LENGTH.ctaLabel),
    fromName: slotText(SLOT_MAX_LENGTH.fromName),
    replyTo: z.string().nullable(),
  })
  .meta({ id: 'EmailTemplateSlots' });
export type EmailTemplateSlotsRead = z.infer<typeof emailTemplateSlotsSchema>;

export const emailTemplateOverrideSchema = z
  .object({
    subject: z.string().nullable(),
    heading: z.string().nullable(),
    bodyText: z.string().nullable(),
    ctaLabel: z.string().nullable(),
    fromName: z.string().nullable(),
    replyTo: z.string().nullable(),
    updatedAt: z.iso.datetime(),
  })
  .describe('The saved override: a null slot uses the default')
  .meta({ id: 'EmailTemplateOverride' });
export type EmailTemplateOverrideRead = z.infer<typeof emailTemplateOverrideSchema>;

export const mergeVariableSchema = z
  .object({ name: z.string(), description: z.string(), sample: z.string() })
  .meta({ id: 'EmailTemplateMergeVariable' });

export const renderedEmailTemplateSchema = z
  .object({
    subject: z.string(),
    heading: z.string(),
    bodyText: z.string(),
    ctaLabel: z.string(),
    text: z.string().describe('The plain-text part'),
    html: z.string().describe('The HTML part'),
  })
  .meta({ id: 'EmailTemplateRendered' });
export type RenderedEmailTemplateRead = z.infer<typeof renderedEmailTemplateSchema>;

export const emailTemplateSenderSchema = z
  .object({
    fromName: z.string(),
    fromAddress: z.string().describe('The platform sending address (EMAIL_FROM); not writable'),
    replyTo: z
      .string()
      .nullable()
      .describe("The override's reply-to, else the business profile's supportEmail, else none"),
  })
  .meta({ id: 'EmailTemplateSender' });

export const emailTemplateComplianceSchema = z
  .object({
    footer: z.string().describe('The compliance footer, one line per line; not writable'),
    unsubscribe: z.boolean().describe('Whether the email carries an unsubscribe link; not writable'),
  })
  .meta({ id: 'EmailTemplateCompliance' });

export const emailTemplateSchema = z
  .object({
    type: z.enum(EMAIL_TEMPLATE_TYPES),
    description: z.string(),
    defaults: emailTemplateSlotsSchema,
    override: emailTemplateOverrideSchema.nullable(),
    mergeVariables: z.array(mergeVariableSchema),
    sample: renderedEmailTemplateSchema.describe('The resolved copy rendered with sample values and links'),
    sender: emailTemplateSenderSchema,
    compliance: emailTemplateComplianceSchema,
  })
  .meta({ id: 'EmailTemplate' });
export type EmailTemplateRead = z.infer<typeof emailTemplateSchema>;

export const emailTemplateListSchema = pageSchema(emailTemplateSchema);

export const emailTemplatePreviewSchema = z
  .object({
    type: z.enum(EMAIL_TEMPLATE_TYPES),
    sample: renderedEmailTemplateSchema,
    sender: emailTemplateSenderSchema,
    compliance: emailTemplateComplianceSchema,
  })
  .meta({ id: 'EmailTemplatePreview' });
export type EmailTemplatePreview = z.infer<typeof emailTemplatePreviewSchema>;

export const sendTestResultSchema = z
  .object({
    status: z.literal('SENT'),
    to: z.string(),
    outboxId: z.string().describe('The outbox row that carried the test email'),
  })
  .meta({ id: 'EmailTemplateTestSend' });
export type SendTestResult = z.infer<typeof sendTestResultSchema>;
