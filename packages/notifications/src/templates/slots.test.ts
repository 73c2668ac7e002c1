import { describe, expect, it } from 'vitest';
import { getEmailTemplateDefinition } from './registry.ts';
import {
  emailTemplateSlotSchemas,
  emailTemplateSlotsPatchSchema,
  findCopyIssues,
  findMissingRequiredVariables,
} from './slots.ts';

const orderConfirmation = getEmailTemplateDefinition('ORDER_CONFIRMATION');
const customerAuth = getEmailTemplateDefinition('CUSTOMER_AUTH');

function issuesOf(input: unknown) {
  const parsed = emailTemplateSlotsPatchSchema.safeParse(input);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

describe('findCopyIssues', () => {
  it('accepts plain {{ variable }} outputs of declared variables, with or without whitespace control', () => {
    expect(
      findCopyIssues(orderConfirmation, {
        subject: 'Order {{order.number}} for {{ customer.name }}',
        heading: '{{- organization.name -}}',
        bodyText: 'No variables at all }} {',
        ctaLabel: null,
      }),
    ).toEqual([]);
  });

  it('names every unknown variable in its own issue on the slot that uses it', () => {
    const issues = findCopyIssues(orderConfirmation, {
      subject: 'Order {{ order.numbr }} {{ order.number }}',
      bodyText: 'Hi {{ customer.nam }}, {{ return.id }} {{ customer.nam }}',
    });
    expect(issues.map((issue) => issue.path)).toEqual(['subject', 'bodyText', 'bodyText']);
    expect(issues[0]?.message).toMatch(/^unknown merge variable "order\.numbr"/);
    expect(issues[1]?.message).toMatch(/^unknown merge variable "customer\.nam"/);
    expect(issues[2]?.message).toMatch(/^unknown merge variable "return\.id"/);
    expect(issues[0]?.message).toContain('order.number');
  });

  it('rejects tags, filters and expressions other than a variable', () => {
    const cases: [string, RegExp][] = [
      ['{% if customer.name %}Hi{% endif %}', /tags/],
      ['{% raw %}{{ customer.name }}{% endraw %}', /tags/],
      ['{% include "secrets" %}', /tags/],
      ['{%- liquid echo customer.name -%}', /tags/],
      ['{{ customer.name | upcase }}', /filters/],
      ['{{ "now" | date: "%Y" }}', /filters/],
      ['{{ "literal" }}', /not a merge variable/],
      ['{{ customer["name"] }}', /not a merge variable/],
      ['{{ (1..3) }}', /not a merge variable/],
      ['Hi {{ customer.name', /not valid template text/],
      ['{{ }}', /not valid template text/],
    ];
    for (const [source, message] of cases) {
      const issues = findCopyIssues(orderConfirmation, { bodyText: source });
      expect(issues, source).toHaveLength(1);
      expect(issues[0]?.path).toBe('bodyText');
      expect(issues[0]?.message, source).toMatch(message);
    }
  });

  it('does not look at the sender name or reply-to', () => {
    expect(
      findCopyIssues(orderConfirmation, { fromName: '{% if %}', replyTo: '{{ x }}' } as Record<
        string,
        string
      >),
    ).toEqual([]);
  });
});

describe('findMissingRequiredVariables', () => {
  it('asks CUSTOMER_AUTH copy to keep the sign-in code somewhere', () => {
    const withoutCode = { ...customerAuth.defaults, bodyText: 'Use the button below.' };
    expect(findMissingRequiredVariables(customerAuth, withoutCode)).toEqual([
      { path: 'bodyText', message: 'must keep the merge variable "{{ auth.code }}"' },
    ]);
    expect(
      findMissingRequiredVariables(customerAuth, { ...withoutCode, subject: 'Code {{ auth.code }}' }),
    ).toEqual([]);
    expect(
      findMissingRequiredVariables(orderConfirmation, { ...orderConfirmation.defaults, bodyText: 'x' }),
    ).toEqual([]);
  });
});

describe('slot schemas', () => {
  it('takes each slot at its maximum length and refuses one character more', () => {
    const limits = { subject: 200, heading: 200, bodyText: 5000, ctaLabel: 60, fromName: 100 } as const;
    for (const [slot, max] of Object.entries(limits)) {
      expect(issuesOf({ [slot]: 'x'.repeat(max) }), slot).toEqual([]);
      const issues = issuesOf({ [slot]: 'x'.repeat(max + 1) });
      expect(
        issues.map((issue) => issue.path),
        slot,
      ).toEqual([slot]);
    }
  });

  it('refuses line breaks in the subject and the other one-line slots, but not in the body', () => {
    for (const slot of ['subject', 'heading', 'ctaLabel', 'fromName']) {
      for (const breakCharacter of ['\n', '\r', '\u2028']) {
        expect(issuesOf({ [slot]: `a${breakCharacter}b` }), slot).toEqual([
          { path: slot, message: 'must not contain line breaks' },
        ]);
      }
    }
    expect(issuesOf({ bodyText: 'a\nb' })).toEqual([]);
  });

  it('keeps the sender name header-safe and free of merge variables', () => {
    expect(issuesOf({ fromName: 'Acme, Inc. (Support)' })).toEqual([]);
    for (const bad of ['Acme <x@y.z>', 'Acme "Official"', 'Back\\slash', 'Hi {{ organization.name }}']) {
      expect(issuesOf({ fromName: bad }), bad).toHaveLength(1);
    }
  });

  it('takes an email or null as reply-to, null for every slot, and refuses unknown keys and empty text', () => {
    expect(issuesOf({ replyTo: 'help@acme.test' })).toEqual([]);
    expect(issuesOf({ replyTo: 'not an email' }).map((issue) => issue.path)).toEqual(['replyTo']);
    expect(
      issuesOf({
        subject: null,
        heading: null,
        bodyText: null,
        ctaLabel: null,
        fromName: null,
        replyTo: null,
      }),
    ).toEqual([]);
    expect(issuesOf({ footer: 'mine' }).map((issue) => issue.path)).toEqual(['']);
    expect(issuesOf({ subject: '   ' }).map((issue) => issue.path)).toEqual(['subject']);
    expect(emailTemplateSlotSchemas.subject.parse('  Padded  ')).toBe('Padded');
  });
});
