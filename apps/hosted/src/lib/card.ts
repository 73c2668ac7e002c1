/**
 * A card's expiry as the shopper typed it, in the `MM/YY` the payment route takes: `1229`, `12 29`,
 * `12-29`, `12/2029` and `1/29` are all December 2029 or January 2029 as written. Anything else is
 * returned as typed, for the schema to refuse (with a plain message).
 */
export function normalizeExpiry(typed: string): string {
  const value = typed.trim();
  const match = /^(\d{2})(\d{2}|\d{4})$/.exec(value) ?? /^(\d{1,2})\s*[/\-. ]\s*(\d{2}|\d{4})$/.exec(value);
  if (!match) return typed;
  return `${match[1]!.padStart(2, '0')}/${match[2]!.slice(-2)}`;
}

export type CardBrand =
  | 'Visa'
  | 'Mastercard'
  | 'American Express'
  | 'Discover'
  | 'Diners Club'
  | 'JCB'
  | 'UnionPay';

/** The digits of what was typed (spaces, dashes and anything else dropped): what the API is sent. */
export const cardDigits = (typed: string): string => typed.replace(/\D/g, '');

/**
 * The card's network from the first digits of its number (the issuer identification ranges the
 * networks publish), or undefined while it cannot be told yet.
 */
export function cardBrand(typed: string): CardBrand | undefined {
  const digits = cardDigits(typed);
  const prefix = (length: number) => Number(digits.slice(0, length));
  if (digits.startsWith('4')) return 'Visa';
  if (/^3[47]/.test(digits)) return 'American Express';
  if (/^5[1-5]/.test(digits)) return 'Mastercard';
  if (digits.length >= 4 && prefix(4) >= 2221 && prefix(4) <= 2720) return 'Mastercard';
  if (/^(6011|65)/.test(digits)) return 'Discover';
  if (digits.length >= 3 && prefix(3) >= 644 && prefix(3) <= 649) return 'Discover';
  if (/^(36|38|30[0-5])/.test(digits)) return 'Diners Club';
  if (digits.length >= 4 && prefix(4) >= 3528 && prefix(4) <= 3589) return 'JCB';
  if (digits.startsWith('62')) return 'UnionPay';
  return undefined;
}

/** How the brand's numbers are printed: Amex 4-6-5, Diners 4-6-4, the others in fours. */
function groupsOf(brand: CardBrand | undefined): { groups: number[]; max: number } {
  if (brand === 'American Express') return { groups: [4, 6, 5], max: 15 };
  if (brand === 'Diners Club') return { groups: [4, 6, 4], max: 14 };
  return { groups: [4, 4, 4, 4, 3], max: 19 };
}

/** The number grouped as the card prints it (`4242 4242 4242 4242`, `3782 822463 10005`), capped at the brand's length. */
export function formatCardNumber(typed: string): string {
  const { groups, max } = groupsOf(cardBrand(typed));
  const digits = cardDigits(typed).slice(0, max);
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

/**
 * The expiry as it is typed, with the slash added once the month is complete: `1` stays `1`, `12`
 * becomes `12/`, `4` becomes `04/`, `1229` becomes `12/29`, `1/29` becomes `01/29`. While the
 * shopper deletes (`deleting`), a trailing slash is not put back. A four-digit year is kept
 * (`12/2029`); `normalizeExpiry` sends it as `12/29`.
 */
export function formatExpiry(typed: string, deleting = false): string {
  const separated = /^\s*(\d{1,2})\s*[/\-. ]\s*(\d*)/.exec(typed);
  if (separated) {
    const year = separated[2]!.slice(0, 4);
    if (deleting && year === '') return separated[1]!;
    return `${separated[1]!.padStart(2, '0')}/${year}`;
  }
  const digits = cardDigits(typed).slice(0, 6);
  if (digits.length === 0) return '';
  if (digits.length === 1) return digits > '1' && !deleting ? `0${digits}/` : digits;
  const year = digits.slice(2);
  if (year === '') return deleting ? digits : `${digits}/`;
  return `${digits.slice(0, 2)}/${year}`;
}

/**
 * Where the caret goes after a value was reformatted: after the same number of digits as it was
 * before (typing in the middle of a number keeps the caret where the shopper types).
 */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < formatted.length; index++) {
    if (/\d/.test(formatted[index]!)) seen++;
    if (seen === digitsBefore) {
      // Past a separator that follows the digit, as a shopper typing on expects.
      let next = index + 1;
      while (next < formatted.length && /[ /]/.test(formatted[next]!)) next++;
      return next;
    }
  }
  return formatted.length;
}
