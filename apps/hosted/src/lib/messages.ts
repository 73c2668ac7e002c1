/**
 * Plain-language field messages. The router's zod schemas decide what is valid, but their messages
 * ("Too small: expected string to have >=1 characters", "must be MM/YY") are written for
 * developers: no shopper ever reads one. Every field message the pages show, whether from the
 * browser's own parse of a schema or from the server's `VALIDATION_FAILED` issues (which carry only
 * a path and zod's text), goes through `plainMessage`, which says what to enter in words.
 */

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

const EMAIL = 'Enter an email address like name@example.com';

/** What to say, by the field's path (its last segment also matches). */
const FIELDS: Record<string, { missing: string; invalid?: string }> = {
  email: { missing: 'Enter your email address', invalid: EMAIL },
  customerEmail: { missing: 'Enter your email address', invalid: EMAIL },
  customerName: { missing: 'Enter your full name' },
  signerName: { missing: 'Enter your full name' },
  name: { missing: 'Enter a name' },
  company: { missing: 'Enter the company name' },
  customerPhone: { missing: 'Enter your phone number' },
  phone: { missing: 'Enter a phone number' },
  line1: { missing: 'Enter your street address' },
  line2: { missing: 'Enter the apartment, suite or floor' },
  city: { missing: 'Enter your city' },
  state: { missing: 'Enter your state, province or region' },
  postalCode: { missing: 'Enter your postal code' },
  country: { missing: 'Choose a country', invalid: 'Choose a country from the list' },
  shippingCountry: { missing: 'Choose a country', invalid: 'Choose a country from the list' },
  'card.number': {
    missing: 'Enter your card number',
    invalid:
      'This card number is not accepted here. This is a test store: use 4242 4242 4242 4242 (or another test card above).',
  },
  'card.expiry': {
    missing: 'Enter the expiry date as MM/YY',
    invalid: 'Enter the expiry date as MM/YY, for example 12/29',
  },
  'card.cvc': {
    missing: 'Enter the 3 or 4 digit security code from the back of your card',
    invalid: 'Enter the 3 or 4 digit security code from the back of your card',
  },
  code: { missing: 'Enter the code from the email', invalid: 'Enter the 6-digit code from the email' },
  token: { missing: 'This sign-in link is incomplete', invalid: 'This sign-in link does not work' },
  reason: { missing: 'Enter a reason', invalid: 'Choose a reason from the list' },
  quantity: { missing: 'Choose how many', invalid: 'Choose a quantity you can return' },
  customerNote: { missing: 'Enter a note' },
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
  if (path === 'card.expiry' && /expired/.test(issue.message))
    return 'This card has expired. Check the expiry date, or use another card.';
  const kind = kindOf(issue);
  switch (kind.kind) {
    case 'missing':
      return field?.missing ?? 'Fill in this field';
    case 'tooLong':
      return `Use at most ${kind.max} characters`;
    case 'email':
      return EMAIL;
    default:
      return field?.invalid ?? field?.missing ?? 'Check this entry';
  }
}
