import { AppError, formatIssuePath } from '@commerce/core';
import type { Database, EmailTemplateOverride } from '@commerce/db';
import {
  COPY_SLOTS,
  EMAIL_TEMPLATE_SLOTS,
  type EmailOrganization,
  type EmailTemplateDefinition,
  type EmailTemplateSlot,
  type EmailTemplateSlots,
  type EmailTemplateSlotsPatch,
  emailTemplateSlotsPatchSchema,
  findCopyIssues,
  findEmailTemplateDefinition,
  findMissingRequiredVariables,
  renderEmailTemplateSample,
  SLOT_MAX_LENGTH,
} from '@commerce/notifications';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { EmailTemplateOverrideRead, EmailTemplateRead, RenderedEmailTemplateRead } from './schemas.ts';

/** What every email-template service needs besides the database: the tenant and two configuration values. */
export interface EmailTemplateScope {
  organizationId: string;
  /** EMAIL_FROM: `Name <address>` or a bare address; its address is the fixed sending address. */
  emailFrom: string;
  /** HOSTED_CHECKOUT_URL: the base of the sample links. */
  linkBase: string;
}

/** The storage column of each slot. */
export const SLOT_COLUMNS = {
  subject: 'subject',
  heading: 'heading',
  bodyText: 'body_text',
  ctaLabel: 'cta_label',
  fromName: 'from_name',
  replyTo: 'reply_to',
} as const satisfies Record<EmailTemplateSlot, keyof EmailTemplateOverride>;

/** The store as its emails present it: the organization, with its business profile where set. */
export interface TemplateOrganization extends EmailOrganization {
  /** The default sender name: the store's name made header-safe. */
  defaultFromName: string;
}

/** The definition of `type`, or 404 for a string outside the fixed set. */
export function requireEmailTemplateDefinition(type: string): EmailTemplateDefinition {
  const definition = findEmailTemplateDefinition(type);
  if (!definition) throw AppError.notFound('Email template type not found');
  return definition;
}

/** The organization's name and business profile, in one query (the settings row may not exist). */
export async function loadTemplateOrganization(
  db: Kysely<Database>,
  organizationId: string,
): Promise<TemplateOrganization> {
  const row = await db
    .selectFrom('organizations')
    .leftJoin('organization_settings', 'organization_settings.organization_id', 'organizations.id')
    .select(['organizations.name', 'organization_settings.business_profile'])
    .where('organizations.id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const profile: Record<string, unknown> =
    typeof row.business_profile === 'object' && row.business_profile !== null ? row.business_profile : {};
  const displayName = typeof profile.displayName === 'string' ? profile.displayName.trim() : '';
  const name = displayName === '' ? row.name : displayName;
  const supportEmail = z.email().safeParse(profile.supportEmail);
  return {
    name,
    supportEmail: supportEmail.success ? supportEmail.data : null,
    postalAddress: postalAddressOf(profile.address),
    defaultFromName: headerSafeName(name),
  };
}

/** `businessProfile.address` on one line (`1 Main St, Springfield, 12345, US`), or null when unset. */
function postalAddressOf(address: unknown): string | null {
  if (typeof address !== 'object' || address === null) return null;
  const parts = ['line1', 'line2', 'city', 'state', 'postalCode', 'country']
    .map((key) => (address as Record<string, unknown>)[key])
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => part.replace(/\s+/g, ' ').trim());
  return parts.length === 0 ? null : parts.join(', ');
}

/** A store name usable as a `From` display name: one line, no `<>"\`, at most 100 characters. */
function headerSafeName(name: string): string {
  const safe = name
    .replace(/[<>"\\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, SLOT_MAX_LENGTH.fromName)
    .trim();
  return safe === '' ? 'Store' : safe;
}

/** The bare address of EMAIL_FROM (`Shop <no-reply@shop.example>` → `no-reply@shop.example`). */
export function fromAddressOf(emailFrom: string): string {
  const bracketed = /<([^<>\s]+)>\s*$/.exec(emailFrom);
  return bracketed ? bracketed[1]! : emailFrom.trim();
}

/** The `From` header: the display name (already header-safe) quoted, then the platform address. */
export function fromHeader(fromName: string, fromAddress: string): string {
  return `"${fromName}" <${fromAddress}>`;
}

export function defaultSlots(
  definition: EmailTemplateDefinition,
  organization: TemplateOrganization,
): EmailTemplateSlots {
  return { ...definition.defaults, fromName: organization.defaultFromName, replyTo: null };
}

/** The saved override's slots, by API name; null where a slot keeps its default. */
export function overrideSlots(
  row: EmailTemplateOverride | undefined,
): Record<EmailTemplateSlot, string | null> | undefined {
  if (!row) return undefined;
  const slots = {} as Record<EmailTemplateSlot, string | null>;
  for (const slot of EMAIL_TEMPLATE_SLOTS) slots[slot] = row[SLOT_COLUMNS[slot]];
  return slots;
}

/**
 * The copy in effect: each slot from the draft when the draft sends it (null:
 * the default), else from the saved override, else the default.
 */
export function resolveSlots(
  defaults: EmailTemplateSlots,
  saved: Record<EmailTemplateSlot, string | null> | undefined,
  draft: EmailTemplateSlotsPatch = {},
): EmailTemplateSlots {
  const resolved = { ...defaults };
  for (const slot of EMAIL_TEMPLATE_SLOTS) {
    const drafted = draft[slot];
    const value = drafted !== undefined ? drafted : saved?.[slot];
    if (value !== null && value !== undefined) resolved[slot] = value;
  }
  return resolved;
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
