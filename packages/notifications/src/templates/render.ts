import { htmlEngine, parseCopy, textEngine, toScope } from './liquid.ts';
import { type EmailTemplateCopy, type EmailTemplateDefinition, sampleMergeValues } from './registry.ts';
import { COPY_SLOTS } from './slots.ts';

/** The store as its emails present it, for the compliance footer and `organization.name`. */
export interface EmailOrganization {
  /** The business profile's display name, else the organization's name. */
  name: string;
  supportEmail: string | null;
  /** The business profile's postal address on one line, which commercial email must show. */
  postalAddress?: string | null;
}

/** System links, filled by the sender; never merchant copy. */
export interface EmailTemplateLinks {
  /**
   * The call-to-action URL, or null for an email with no button (a sign-in code email: the shopper
   * types the code, there is no link to follow).
   */
  action: string | null;
  /** Required for types with an unsubscribe link. */
  unsubscribe?: string | null;
}

export interface RenderEmailTemplateInput {
  definition: EmailTemplateDefinition;
  /** The resolved copy: the merchant's override slot by slot, else the default. */
  copy: EmailTemplateCopy;
  /** Merge values by variable name; values not declared by the type are ignored. */
  values: Readonly<Record<string, string>>;
  links: EmailTemplateLinks;
  organization: EmailOrganization;
}

export interface RenderedEmailTemplate {
  subject: string;
  heading: string;
  bodyText: string;
  ctaLabel: string;
  /** The plain-text part: heading, body, the call-to-action link, footer and unsubscribe link. */
  text: string;
  /** The HTML part: every value escaped, body line breaks as paragraphs and `<br>`. */
  html: string;
  /** The compliance footer's lines. */
  footer: string[];
}

// The layouts are system copy: they hold the parts a merchant cannot change.
const TEXT_LAYOUT = textEngine.parse(
  [
    '{{ heading }}',
    '',
    '{{ bodyText }}',
    '',
    '{% if links.action %}{{ ctaLabel }}: {{ links.action }}',
    '',
    '{% endif %}--',
    '{% for line in footer %}{{ line }}',
    '{% endfor %}{% if links.unsubscribe %}Unsubscribe: {{ links.unsubscribe }}',
    '{% endif %}',
  ].join('\n'),
);

const HTML_LAYOUT = htmlEngine.parse(
  [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{ subject }}</title></head>',
    '<body style="margin:0;padding:0;background:#f4f4f5;">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f5;"><tr><td align="center" style="padding:24px 12px;">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px;font-family:Helvetica,Arial,sans-serif;color:#18181b;">',
    '<tr><td style="padding:32px 32px 8px;">',
    '<h1 style="margin:0 0 16px;font-size:22px;line-height:28px;">{{ heading }}</h1>',
    '{% for paragraph in paragraphs %}<p style="margin:0 0 16px;font-size:16px;line-height:24px;">{% for line in paragraph %}{% for part in line %}{% if part.href %}<a href="{{ part.href }}" style="color:#18181b;">{{ part.text }}</a>{% else %}{{ part.text }}{% endif %}{% endfor %}{% unless forloop.last %}<br>{% endunless %}{% endfor %}</p>',
    '{% endfor %}{% if links.action %}<p style="margin:24px 0;"><a href="{{ links.action }}" style="display:inline-block;padding:12px 20px;background:#18181b;color:#ffffff;border-radius:6px;text-decoration:none;font-size:16px;">{{ ctaLabel }}</a></p>{% endif %}',
    '</td></tr>',
    '<tr><td style="padding:16px 32px 24px;border-top:1px solid #e4e4e7;font-size:12px;line-height:18px;color:#71717a;">',
    '{% for line in footer %}<p style="margin:0 0 4px;">{{ line }}</p>{% endfor %}',
    '{% if links.unsubscribe %}<p style="margin:8px 0 0;"><a href="{{ links.unsubscribe }}" style="color:#71717a;">Unsubscribe</a></p>{% endif %}',
    '</td></tr></table>',
    '</td></tr></table>',
    '</body></html>',
  ].join('\n'),
);

/**
 * The compliance footer: who sent the email, how to reach them and why the
 * recipient got it. System copy, never writable.
 */
export function complianceFooter(
  definition: EmailTemplateDefinition,
  organization: EmailOrganization,
): string[] {
  const lines = [`Sent by ${organization.name}.`];
  if (organization.postalAddress) lines.push(organization.postalAddress);
  if (organization.supportEmail) lines.push(`Questions? Contact ${organization.supportEmail}.`);
  lines.push(
    definition.hasUnsubscribe
      ? `You are receiving this email because you asked ${organization.name} for updates.`
      : `You are receiving this email because of your activity with ${organization.name}.`,
  );
  return lines;
}

/**
 * Renders one email: the copy slots with the merge values (liquid, no
 * escaping), then the system layouts around them. The HTML layout escapes
 * every output, the rendered copy included, so neither a merge value nor the
 * merchant's own text can add markup; the body's blank lines become
 * paragraphs and its single line breaks `<br>`. The subject is one line.
 */
export function renderEmailTemplate(input: RenderEmailTemplateInput): RenderedEmailTemplate {
  const { definition, organization } = input;
  const action = input.links.action === null ? null : requireWebLink(input.links.action, 'action');
  const unsubscribe = definition.hasUnsubscribe
    ? requireWebLink(input.links.unsubscribe, 'unsubscribe')
    : null;

  const declared = new Set(definition.variables.map((entry) => entry.name));
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.values)) {
    if (declared.has(name)) values[name] = value;
  }
  values['organization.name'] = organization.name;
  const scope = toScope(values);
  // The links the sender supplies as merge values (the variables named `…Url`: `booking.manageUrl`,
  // `booking.paymentUrl`, `shipment.trackingUrl`): the body prints them, and the HTML part makes each
  // a link, as a mail client does with the text part's URL. Only these: a URL the merchant typed, or
  // one a customer gave as their name, stays text.
  const linkValues = Object.entries(values)
    .filter(([name, value]) => name.endsWith('Url') && isWebLink(value))
    .map(([, value]) => value);

  const rendered = {} as EmailTemplateCopy;
  for (const slot of COPY_SLOTS) {
    const parsed = parseCopy(input.copy[slot]);
    if (parsed.problems.length > 0) throw new Error(`The ${slot} of ${definition.type} is not valid copy`);
    rendered[slot] = String(textEngine.renderSync(parsed.templates, scope));
  }
  const subject = oneLine(rendered.subject);
  const heading = oneLine(rendered.heading);
  const ctaLabel = oneLine(rendered.ctaLabel);
  const bodyText = rendered.bodyText.replace(/\r\n?/g, '\n').trim();
  const footer = complianceFooter(definition, organization);
  const links = { action, unsubscribe };

  const layoutScope = {
    subject,
    heading,
    bodyText,
    ctaLabel,
    footer,
    links,
    paragraphs: paragraphsOf(bodyText).map((lines) => lines.map((line) => linkedParts(line, linkValues))),
  };
  return {
    subject,
    heading,
    bodyText,
    ctaLabel,
    text: String(textEngine.renderSync(TEXT_LAYOUT, layoutScope)),
    html: String(htmlEngine.renderSync(HTML_LAYOUT, layoutScope)),
    footer,
  };
}

/** A header-safe line: every run of whitespace, line breaks included, becomes one space. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/** Blank lines separate paragraphs; the lines within a paragraph are joined with `<br>`. */
function paragraphsOf(bodyText: string): string[][] {
  return bodyText
    .split(/\n[ \t]*\n/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.trimEnd())
        .filter((line) => line.trim() !== ''),
    )
    .filter((lines) => lines.length > 0);
}

/** One line of the HTML body as text runs and links: each occurrence of a `links` value is a link. */
function linkedParts(line: string, links: string[]): { text: string; href: string | null }[] {
  // `href` is always present (null for text): the layout's variables are strict.
  const parts: { text: string; href: string | null }[] = [];
  let rest = line;
  for (;;) {
    let first: { at: number; link: string } | undefined;
    for (const link of links) {
      const at = rest.indexOf(link);
      // The earliest, then the longest (a link that is the start of another is never cut short).
      if (at >= 0 && (!first || at < first.at || (at === first.at && link.length > first.link.length)))
        first = { at, link };
    }
    if (!first) break;
    if (first.at > 0) parts.push({ text: rest.slice(0, first.at), href: null });
    parts.push({ text: first.link, href: first.link });
    rest = rest.slice(first.at + first.link.length);
  }
  if (rest !== '' || parts.length === 0) parts.push({ text: rest, href: null });
  return parts;
}

function isWebLink(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !/\s/.test(value);
  } catch {
    return false;
  }
}

function requireWebLink(value: string | null | undefined, name: string): string {
  if (value) {
    try {
      const url = new URL(value);
      if (url.protocol === 'https:' || url.protocol === 'http:') return value;
    } catch {
      // Reported below.
    }
  }
  throw new Error(`The ${name} link must be an http(s) URL`);
}

/** The system links of the list's sample, preview and send-test, under `baseUrl` (HOSTED_CHECKOUT_URL). */
export function sampleLinks(definition: EmailTemplateDefinition, baseUrl: string): EmailTemplateLinks {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    action: `${base}${definition.action.samplePath}`,
    unsubscribe: definition.hasUnsubscribe ? `${base}/email/unsubscribe?token=sample` : null,
  };
}

/** Renders `copy` with the type's sample values and sample links. */
export function renderEmailTemplateSample(
  definition: EmailTemplateDefinition,
  copy: EmailTemplateCopy,
  organization: EmailOrganization,
  baseUrl: string,
): RenderedEmailTemplate {
  return renderEmailTemplate({
    definition,
    copy,
    values: sampleMergeValues(definition),
    links: sampleLinks(definition, baseUrl),
    organization,
  });
}
