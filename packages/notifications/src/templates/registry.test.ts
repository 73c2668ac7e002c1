import { describe, expect, it } from 'vitest';
import { parseCopy } from './liquid.ts';
import {
  EMAIL_TEMPLATE_TYPES,
  findEmailTemplateDefinition,
  isEmailTemplateType,
  listEmailTemplateDefinitions,
  sampleMergeValues,
} from './registry.ts';
import { renderEmailTemplateSample } from './render.ts';
import {
  COPY_SLOTS,
  emailTemplateSlotSchemas,
  findCopyIssues,
  findMissingRequiredVariables,
} from './slots.ts';

// The fixed set of email template types (docs/notifications.md "Email templates"), in its order.
const SPEC_TYPES = [
  'CUSTOMER_AUTH',
  'ORDER_CONFIRMATION',
  'ABANDONED_CART_RECOVERY',
  'BACK_IN_STOCK',
  'STOCK_NOTIFICATION_CONFIRMATION',
  'NEWSLETTER_CONFIRMATION',
  'RETURN_REQUESTED',
  'RETURN_APPROVED',
  'RETURN_RECEIVED',
  'RETURN_COMPLETED',
  'RETURN_REJECTED',
  'COMMERCE_QUOTE_SEND',
  'COMMERCE_INVOICE_SEND',
  'COMMERCE_CONTRACT_SEND',
  'COMMERCE_CONTRACT_COUNTERSIGNED',
  'COMMERCE_CONTRACT_VOIDED',
  'COMMERCE_QUOTE_EXPIRED',
  'BOOKING_NOTIFICATION',
  'COMMERCE_PAYMENT_RECEIVED',
  'ORDER_SHIPPED',
  'SUBSCRIPTION_PAYMENT_RECOVERY',
];

const organization = { name: 'Acme Outfitters', supportEmail: 'help@acme.test' };

describe('email template registry', () => {
  it("holds exactly the spec's 21 types, in its order, each defined once", () => {
    expect([...EMAIL_TEMPLATE_TYPES]).toEqual(SPEC_TYPES);
    expect(listEmailTemplateDefinitions().map((definition) => definition.type)).toEqual(SPEC_TYPES);
    for (const type of SPEC_TYPES) expect(findEmailTemplateDefinition(type)?.type).toBe(type);
  });

  it('knows no other type, whatever its case', () => {
    expect(findEmailTemplateDefinition('order_confirmation')).toBeUndefined();
    expect(findEmailTemplateDefinition('WELCOME')).toBeUndefined();
    expect(findEmailTemplateDefinition('__proto__')).toBeUndefined();
    expect(isEmailTemplateType('ORDER_SHIPPED')).toBe(true);
    expect(isEmailTemplateType('ORDER_SHIPPED ')).toBe(false);
  });

  for (const definition of listEmailTemplateDefinitions()) {
    describe(definition.type, () => {
      it('declares each merge variable once, with a description and a sample, none a prefix of another', () => {
        const names = definition.variables.map((entry) => entry.name);
        expect(new Set(names).size).toBe(names.length);
        expect(names).toContain('organization.name');
        for (const entry of definition.variables) {
          expect(entry.name).toMatch(/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/);
          expect(entry.description.length).toBeGreaterThan(0);
          expect(entry.sample.length).toBeGreaterThan(0);
          expect(names.some((other) => other.startsWith(`${entry.name}.`))).toBe(false);
        }
      });

      it('has default copy that is valid override copy and references only declared variables', () => {
        const declared = new Set(definition.variables.map((entry) => entry.name));
        for (const slot of COPY_SLOTS) {
          expect(emailTemplateSlotSchemas[slot].safeParse(definition.defaults[slot]).success, slot).toBe(
            true,
          );
          const parsed = parseCopy(definition.defaults[slot]);
          expect(parsed.problems, slot).toEqual([]);
          for (const name of parsed.variables) expect(declared.has(name), `${slot}: ${name}`).toBe(true);
        }
        expect(findCopyIssues(definition, definition.defaults)).toEqual([]);
        expect(findMissingRequiredVariables(definition, definition.defaults)).toEqual([]);
        for (const name of definition.requiredVariables) expect(declared.has(name)).toBe(true);
      });

      it('renders its defaults with its own sample values', () => {
        const rendered = renderEmailTemplateSample(
          definition,
          definition.defaults,
          organization,
          'https://shop.example',
        );
        const samples = sampleMergeValues(definition);
        const used = COPY_SLOTS.flatMap((slot) => parseCopy(definition.defaults[slot]).variables);
        for (const name of used) {
          const sample = name === 'organization.name' ? organization.name : samples[name]!;
          expect(rendered.text, name).toContain(sample);
        }
        for (const part of [rendered.subject, rendered.heading, rendered.bodyText, rendered.ctaLabel]) {
          expect(part).not.toMatch(/\{\{|\}\}/);
          expect(part.length).toBeGreaterThan(0);
        }
        expect(rendered.subject).not.toMatch(/[\r\n]/);
        expect(rendered.text).toContain(`https://shop.example${definition.action.samplePath}`);
        expect(rendered.html).toContain('<!doctype html>');
      });
    });
  }

  it('gives an unsubscribe link to the types sent because of a subscription, and only to them', () => {
    const withUnsubscribe = listEmailTemplateDefinitions()
      .filter((definition) => definition.hasUnsubscribe)
      .map((definition) => definition.type);
    expect(withUnsubscribe).toEqual([
      'ABANDONED_CART_RECOVERY',
      'BACK_IN_STOCK',
      'STOCK_NOTIFICATION_CONFIRMATION',
      'NEWSLETTER_CONFIRMATION',
    ]);
  });

  it('makes the sign-in code a required variable of CUSTOMER_AUTH', () => {
    expect(findEmailTemplateDefinition('CUSTOMER_AUTH')?.requiredVariables).toEqual(['auth.code']);
  });
});
