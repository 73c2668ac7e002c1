import { AppError, formatIssuePath } from '@commerce/core';
import type { EmailTemplateOverride } from '@commerce/db';
import {
  COPY_SLOTS,
  defaultSlots,
  type EmailTemplateDefinition,
  type EmailTemplateSlots,
  type EmailTemplateSlotsPatch,
  emailTemplateSlotsPatchSchema,
  findCopyIssues,
  findEmailTemplateDefinition,
  findMissingRequiredVariables,
  fromAddressOf,
  overrideSlots,
  renderEmailTemplateSample,
  resolveSlots,
  type TemplateOrganization,
} from '@commerce/notifications';
import type { EmailTemplateOverrideRead, EmailTemplateRead, RenderedEmailTemplateRead } from './schemas.ts';

/** What every email-template service needs besides the database: the tenant and two configuration values. */
export interface EmailTemplateScope {
  organizationId: string;
  /** EMAIL_FROM: `Name <address>` or a bare address; its address is the fixed sending address. */
  emailFrom: string;
  /** HOSTED_CHECKOUT_URL: the base of the sample links. */
  linkBase: string;
}

/** The definition of `type`, or 404 for a string outside the fixed set. */
export function requireEmailTemplateDefinition(type: string): EmailTemplateDefinition {
  const definition = findEmailTemplateDefinition(type);
  if (!definition) throw AppError.notFound('Email template type not found');
  return definition;
}

/** Parses slots sent by a caller (sizes, line breaks, unknown keys) and checks their copy; 400 on any problem. */
export function parseSlotsPatch(
  definition: EmailTemplateDefinition,
  input: unknown,
  pathPrefix = '',
): EmailTemplateSlotsPatch {
  const parsed = emailTemplateSlotsPatchSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw AppError.validation(
      parsed.error.issues.map((issue) => ({
        path: pathPrefix + formatIssuePath(issue.path),
        message: issue.message,
      })),
      'The template copy is invalid',
    );
  }
  const issues = findCopyIssues(definition, parsed.data);
  if (issues.length > 0) {
    throw AppError.validation(
      issues.map((issue) => ({ ...issue, path: pathPrefix + issue.path })),
      'The template copy is invalid',
    );
  }
  return parsed.data;
}

/** Refuses resolved copy that dropped a variable the type requires (the sign-in code). */
export function assertRequiredVariables(
  definition: EmailTemplateDefinition,
  slots: EmailTemplateSlots,
  pathPrefix = '',
): void {
  const issues = findMissingRequiredVariables(definition, slots);
  if (issues.length > 0) {
    throw AppError.validation(
      issues.map((issue) => ({ ...issue, path: pathPrefix + issue.path })),
      'The template copy is invalid',
    );
  }
}

export interface ResolvedTemplate {
  sample: RenderedEmailTemplateRead;
  footer: string[];
  sender: EmailTemplateRead['sender'];
  compliance: EmailTemplateRead['compliance'];
}

/** Renders resolved slots with sample values and links, and the sender and compliance parts around them. */
export function renderResolvedTemplate(
  definition: EmailTemplateDefinition,
  slots: EmailTemplateSlots,
  organization: TemplateOrganization,
  scope: EmailTemplateScope,
): ResolvedTemplate {
  const copy = Object.fromEntries(COPY_SLOTS.map((slot) => [slot, slots[slot]])) as Pick<
    EmailTemplateSlots,
    (typeof COPY_SLOTS)[number]
  >;
  const rendered = renderEmailTemplateSample(definition, copy, organization, scope.linkBase);
  return {
    sample: {
      subject: rendered.subject,
      heading: rendered.heading,
      bodyText: rendered.bodyText,
      ctaLabel: rendered.ctaLabel,
      text: rendered.text,
      html: rendered.html,
    },
    footer: rendered.footer,
    sender: {
      fromName: slots.fromName,
      fromAddress: fromAddressOf(scope.emailFrom),
      // Without a reply-to of its own, a reply reaches the store's support address when it has one.
      replyTo: slots.replyTo ?? organization.supportEmail,
    },
    compliance: { footer: rendered.footer.join('\n'), unsubscribe: definition.hasUnsubscribe },
  };
}

export function toOverrideRead(row: EmailTemplateOverride | undefined): EmailTemplateOverrideRead | null {
  const slots = overrideSlots(row);
  if (!row || !slots) return null;
  return { ...slots, updatedAt: row.updated_at.toISOString() };
}

/** One template as the list and the update answer it. */
export function toEmailTemplateRead(
  definition: EmailTemplateDefinition,
  row: EmailTemplateOverride | undefined,
  organization: TemplateOrganization,
  scope: EmailTemplateScope,
): EmailTemplateRead {
  const defaults = defaultSlots(definition, organization);
  const resolved = resolveSlots(defaults, overrideSlots(row));
  const { sample, sender, compliance } = renderResolvedTemplate(definition, resolved, organization, scope);
  return {
    type: definition.type,
    description: definition.description,
    defaults,
    override: toOverrideRead(row),
    mergeVariables: definition.variables.map((entry) => ({ ...entry })),
    sample,
    sender,
    compliance,
  };
}
