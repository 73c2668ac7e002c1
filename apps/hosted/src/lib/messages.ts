/**
 * Plain-language field messages. The router's zod schemas decide what is valid, but their messages
 * ("Too small: expected string to have >=1 characters", "must be MM/YY") are written for
 * developers: no shopper ever reads one. Every field message the pages show, whether from the
 * browser's own parse of a schema or from the server's `VALIDATION_FAILED` issues (which carry only
 * a path and zod's text), goes through `plainMessage`, which says what to enter in words.
 */

import { type MessageKey, t } from '../i18n/index.ts';

/** A zod issue as the browser's parse has it, or a server issue (a path and zod's text only). */
export interface IssueLike {
  code?: string;
  message: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
  format?: string;
  input?: unknown;
}

/**
 * What to say, by the field's path (its last segment also matches): catalogue keys, read in the
 * store's language when a message is made.
 */
const FIELDS: Record<string, { missing: MessageKey; invalid?: MessageKey }> = {
  email: { missing: 'field.yourEmail', invalid: 'field.email' },
  customerEmail: { missing: 'field.yourEmail', invalid: 'field.email' },
  customerName: { missing: 'field.fullName' },
  signerName: { missing: 'field.fullName' },
  name: { missing: 'field.name' },
  company: { missing: 'field.company' },
  customerPhone: { missing: 'field.yourPhone' },
  phone: { missing: 'field.phone' },
  line1: { missing: 'field.line1' },
  line2: { missing: 'field.line2' },
  city: { missing: 'field.city' },
  state: { missing: 'field.state' },
  postalCode: { missing: 'field.postalCode' },
  country: { missing: 'field.country', invalid: 'field.countryFromList' },
  shippingCountry: { missing: 'field.country', invalid: 'field.countryFromList' },
  'card.number': { missing: 'field.cardNumber', invalid: 'field.cardNumberInvalid' },
  'card.expiry': { missing: 'field.expiry', invalid: 'field.expiryInvalid' },
  'card.cvc': { missing: 'field.cvc', invalid: 'field.cvc' },
  code: { missing: 'field.code', invalid: 'field.codeInvalid' },
  token: { missing: 'field.tokenMissing', invalid: 'field.tokenInvalid' },
  reason: { missing: 'field.reason', invalid: 'field.reasonFromList' },
  quantity: { missing: 'field.quantity', invalid: 'field.quantityInvalid' },
  customerNote: { missing: 'field.note' },
};

type Kind = { kind: 'missing' } | { kind: 'tooLong'; max: number } | { kind: 'email' } | { kind: 'invalid' };

/** What went wrong, from the issue's code (the browser's parse) or zod's default text (the server's). */
function kindOf(issue: IssueLike): Kind {
  switch (issue.code) {
    case 'too_small':
      return (issue.origin === 'string' || issue.origin === 'array') && Number(issue.minimum ?? 0) <= 1
        ? { kind: 'missing' }
        : { kind: 'invalid' };
    case 'too_big':
      return issue.origin === 'string'
        ? { kind: 'tooLong', max: Number(issue.maximum) }
        : { kind: 'invalid' };
    case 'invalid_format':
      return issue.format === 'email' ? { kind: 'email' } : { kind: 'invalid' };
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? { kind: 'missing' } : { kind: 'invalid' };
    case undefined:
      break;
    default:
      return { kind: 'invalid' };
  }
  const text = issue.message;
  if (/^Too small: expected (string|array) to have >=1\b/.test(text)) return { kind: 'missing' };
  const tooLong = /^Too big: expected string to have <=(\d+)/.exec(text);
  if (tooLong) return { kind: 'tooLong', max: Number(tooLong[1]) };
  if (/^Invalid email/.test(text)) return { kind: 'email' };
  if (/received (undefined|null)$/.test(text)) return { kind: 'missing' };
  return { kind: 'invalid' };
}

/** The message a shopper reads for one issue at `path` (`shippingAddress.city`, `card.expiry` …). */
export function plainMessage(path: string, issue: IssueLike): string {
  const field = FIELDS[path] ?? FIELDS[path.split('.').at(-1) ?? ''];
  if (path === 'card.expiry' && /expired/.test(issue.message)) return t('field.expired');
  const kind = kindOf(issue);
  switch (kind.kind) {
    case 'missing':
      return t(field?.missing ?? 'field.missing');
    case 'tooLong':
      return t('field.tooLong', kind.max);
    case 'email':
      return t('field.email');
    default:
      return t(field?.invalid ?? field?.missing ?? 'field.check');
  }
}
