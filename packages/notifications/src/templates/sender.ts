import type { Database, EmailTemplateOverride } from '@commerce/db';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { enqueueEmails } from '../enqueue-email.ts';
import {
  type EmailTemplateDefinition,
  type EmailTemplateType,
  findEmailTemplateDefinition,
} from './registry.ts';
import { type EmailOrganization, type EmailTemplateLinks, renderEmailTemplate } from './render.ts';
import {
  COPY_SLOTS,
  EMAIL_TEMPLATE_SLOTS,
  type EmailTemplateSlot,
  type EmailTemplateSlots,
  type EmailTemplateSlotsPatch,
  SLOT_MAX_LENGTH,
} from './slots.ts';

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
  /** The tenant's slug, for `{orgSlug}` in link bases. */
  slug: string;
}

/** The organization's name and business profile, in one query (the settings row may not exist). */
export async function loadTemplateOrganization(
  db: Kysely<Database>,
  organizationId: string,
): Promise<TemplateOrganization> {
  const row = await db
    .selectFrom('organizations')
    .leftJoin('organization_settings', 'organization_settings.organization_id', 'organizations.id')
    .select(['organizations.name', 'organizations.slug', 'organization_settings.business_profile'])
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
    slug: row.slug,
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

/** What every email of one type from one store shares. */
export interface TemplatedEmailBatch {
  organizationId: string;
  type: EmailTemplateType;
  /** EMAIL_FROM: its address is the fixed sending address. */
  emailFrom: string;
  at: Date;
}

/** One recipient's email. */
export interface TemplatedEmailMessage {
  to: string;
  /** Merge values by variable name (`item.name`); `organization.name` is filled here, a missing one is empty. */
  values: Readonly<Record<string, string>>;
  /** Absolute http(s) links; `unsubscribe` is required for types that carry one. */
  links: EmailTemplateLinks;
  /** Non-secret facts kept after delivery (ids): never an address, a name, a token or a code. */
  metadata?: Record<string, unknown>;
  /** Unique per tenant in the outbox: a second message with it fails the transaction that queues it. */
  dedupeKey?: string;
}

export type TemplatedEmail = TemplatedEmailBatch & TemplatedEmailMessage;

/**
 * Renders one customer email with the merchant's copy in effect (the saved
 * override slot by slot, else the default), the store's sender and
 * compliance footer, and queues it in the outbox. Pass the transaction of
 * the change that causes the email, so it exists exactly when the change
 * commits. Two queries (the store, its override) and one insert.
 */
export async function enqueueTemplatedEmail(db: Kysely<Database>, email: TemplatedEmail): Promise<string> {
  const { to, values, links, metadata, dedupeKey, ...batch } = email;
  const [id] = await enqueueTemplatedEmails(db, batch, [
    { to, values, links, ...(metadata ? { metadata } : {}), ...(dedupeKey ? { dedupeKey } : {}) },
  ]);
  return id!;
}

/**
 * The same for many recipients of one type (a back-in-stock fan-out): the
 * store and its copy are read once, each message is rendered with its own
 * values and links, and the rows are inserted in batches.
 */
export async function enqueueTemplatedEmails(
  db: Kysely<Database>,
  batch: TemplatedEmailBatch,
  messages: readonly TemplatedEmailMessage[],
): Promise<string[]> {
  if (messages.length === 0) return [];
  const definition = findEmailTemplateDefinition(batch.type);
  if (!definition) throw new Error(`Unknown email template type ${batch.type}`);
  const [organization, saved] = await Promise.all([
    loadTemplateOrganization(db, batch.organizationId),
    db
      .selectFrom('email_template_overrides')
      .selectAll()
      .where('organization_id', '=', batch.organizationId)
      .where('type', '=', batch.type)
      .executeTakeFirst(),
  ]);
  const slots = resolveSlots(defaultSlots(definition, organization), overrideSlots(saved));
  const copy = Object.fromEntries(COPY_SLOTS.map((slot) => [slot, slots[slot]])) as Pick<
    EmailTemplateSlots,
    (typeof COPY_SLOTS)[number]
  >;
  const from = fromHeader(slots.fromName, fromAddressOf(batch.emailFrom));
  // Without a reply-to of its own, a reply reaches the store's support address when it has one.
  const replyTo = slots.replyTo ?? organization.supportEmail;
  return enqueueEmails(
    db,
    messages.map((message) => {
      // A value the sender has no use for renders empty rather than failing the change that sends it.
      const values: Record<string, string> = {};
      for (const variable of definition.variables)
        values[variable.name] = message.values[variable.name] ?? '';
      const links = withTenantLinks(message.links, organization.slug);
      withTenantValueLinks(values, organization.slug);
      const rendered = renderEmailTemplate({ definition, copy, values, links, organization });
      return {
        organizationId: batch.organizationId,
        templateType: batch.type,
        to: message.to,
        from,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        ...(replyTo ? { replyTo } : {}),
        ...(message.metadata ? { metadata: message.metadata } : {}),
        ...(message.dedupeKey ? { dedupeKey: message.dedupeKey } : {}),
        at: batch.at,
      };
    }),
  );
}

/** What every customer email needs from configuration: EMAIL_FROM and the base of its links (HOSTED_CHECKOUT_URL). */
export interface CustomerEmailConfig {
  emailFrom: string;
  linkBase: string;
  /**
   * BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR: the booking emails a client's or the system's actions
   * may send one recipient of a tenant per hour; beyond, they are held back and counted. The
   * bookings area's default (10) when absent.
   */
  bookingEmailsPerRecipientPerHour?: number;
}

/**
 * The customer email settings of a process's configuration, for work without a request (the worker,
 * sweeps, webhooks): EMAIL_FROM, HOSTED_CHECKOUT_URL as the links' base (its `{orgSlug}` replaced
 * when each email is rendered) and BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR.
 */
export function customerEmailConfigOf(config: {
  email: { from: string; bookingEmailsPerRecipientPerHour: number };
  hostedCheckoutUrl: string;
}): CustomerEmailConfig {
  return {
    emailFrom: config.email.from,
    linkBase: config.hostedCheckoutUrl,
    bookingEmailsPerRecipientPerHour: config.email.bookingEmailsPerRecipientPerHour,
  };
}

/**
 * The placeholder HOSTED_CHECKOUT_URL may hold for the tenant's slug
 * (docs/hosted-app.md "Link bases and link tokens").
 */
export const ORG_SLUG_PLACEHOLDER = '{orgSlug}';

/**
 * The link base for one tenant: HOSTED_CHECKOUT_URL with `{orgSlug}` replaced by its slug
 * (`https://{orgSlug}.shops.example.com`, `http://localhost:3000/hosted/{orgSlug}`); a base without
 * the placeholder is returned as it is, so links stay as before.
 */
export function tenantLinkBase(linkBase: string, slug: string): string {
  return linkBase.replaceAll(ORG_SLUG_PLACEHOLDER, slug);
}

/**
 * `path` (starting with `/`) under the configured link base. A base holding `{orgSlug}` keeps it in
 * the link until the tenant is known: the sender replaces it when it renders the email
 * (`enqueueTemplatedEmails`), and callers that answer a link directly pass a base already resolved
 * with `tenantLinkBase`.
 */
export function customerLink(config: CustomerEmailConfig, path: string): string {
  return `${config.linkBase.replace(/\/+$/, '')}${path}`;
}

/**
 * The merge values that are links (`booking.manageUrl`, `booking.paymentUrl`: an http(s) URL built
 * on the link base) with `{orgSlug}` replaced by the tenant's slug, as the system links are: the
 * body copy prints them in both the text and the HTML part. Other values are left as they are.
 */
function withTenantValueLinks(values: Record<string, string>, slug: string): Record<string, string> {
  for (const [name, value] of Object.entries(values))
    if (value.includes(ORG_SLUG_PLACEHOLDER) && /^https?:\/\//i.test(value))
      values[name] = tenantLinkBase(value, slug);
  return values;
}

/** The email's system links with `{orgSlug}` replaced by the tenant's slug. */
function withTenantLinks(links: EmailTemplateLinks, slug: string): EmailTemplateLinks {
  if (!links.action?.includes(ORG_SLUG_PLACEHOLDER) && !links.unsubscribe?.includes(ORG_SLUG_PLACEHOLDER))
    return links;
  return {
    action: links.action === null ? null : tenantLinkBase(links.action, slug),
    ...(links.unsubscribe === undefined
      ? {}
      : { unsubscribe: links.unsubscribe === null ? null : tenantLinkBase(links.unsubscribe, slug) }),
  };
}
