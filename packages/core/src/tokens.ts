import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Credential tokens (docs/api.md "Identifiers and tokens"): family letter + `1_` + 43
 * base64url characters (32 random bytes). Only the SHA-256 hash is stored;
 * lookups are by hash.
 */
export const TOKEN_FAMILIES = {
  session: 's',
  action: 'a',
  orderStatus: 'o',
  checkout: 'c',
  bookingGroupProof: 'g',
  bookingManagement: 'm',
  /** An unsubscribe link's token (one per email sent; not one of the contract's families, see docs/notifications.md). */
  unsubscribe: 'u',
} as const;
export type TokenFamily = keyof typeof TOKEN_FAMILIES;

export function newToken(family: TokenFamily): string {
  return `${TOKEN_FAMILIES[family]}1_${randomBytes(32).toString('base64url')}`;
}

export function isTokenOf(family: TokenFamily, value: string): boolean {
  return (
    value.length === 46 && value.startsWith(`${TOKEN_FAMILIES[family]}1_`) && /^[A-Za-z0-9_-]+$/.test(value)
  );
}

/** SHA-256 of a token or key, hex encoded: the only form kept at rest. */
export function hashToken(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** Constant-time comparison of two secrets of any length. */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** `or1_` + 32 lowercase hex characters (128 random bits): an order's public address, not a credential. */
export function newOrderReference(): string {
  return `or1_${randomBytes(16).toString('hex')}`;
}
