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
